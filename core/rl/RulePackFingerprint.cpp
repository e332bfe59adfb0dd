#include "rl/RulePackFingerprint.h"

#include <cstdint>
#include <cstdio>

namespace tessera {

namespace {

void fnv1a(uint64_t& hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  hash ^= 0xff; // separates consecutive strings
  hash *= 0x100000001b3ULL;
}

} // namespace

std::string rulePackFingerprint(std::span<const Rule* const> rules) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const Rule* rule : rules) {
    fnv1a(hash, rule->name());
    fnv1a(hash, rule->describe());
  }
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
  return digits;
}

} // namespace tessera
