#include "synth/RuleOrigins.h"

#include <cctype>

namespace tessera::synth {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

} // namespace

std::map<std::string, std::string> ruleOrigins(std::string_view packText) {
  constexpr std::string_view kPrefix = "# origin:";
  std::map<std::string, std::string> origins;
  std::string pending;
  while (!packText.empty()) {
    size_t end = packText.find('\n');
    std::string_view line = trim(packText.substr(0, end));
    packText = end == std::string_view::npos ? std::string_view{} : packText.substr(end + 1);
    if (line.substr(0, kPrefix.size()) == kPrefix) {
      pending = std::string(trim(line.substr(kPrefix.size())));
      continue;
    }
    if (line.empty() || line.front() == '#') {
      pending.clear();
      continue;
    }
    // "NAME [labels]: ..." — the name ends at the first space, '[' or ':'.
    size_t nameEnd = line.find_first_of(" [:");
    if (!pending.empty() && nameEnd != std::string_view::npos) origins[std::string(line.substr(0, nameEnd))] = pending;
    pending.clear();
  }
  return origins;
}

} // namespace tessera::synth
