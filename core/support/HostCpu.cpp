#include "support/HostCpu.h"

#include <fstream>
#include <map>

namespace tessera {

std::string hostCpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::map<std::string, std::string> fields; // of the first processor
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.empty() && !fields.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    fields.emplace(key, value);
  }
  std::string name = fields["model name"];
  if (name.empty()) name = "unknown CPU";
  if (!fields["cpu family"].empty())
    name += ", family " + fields["cpu family"] + " model " + fields["model"] + " stepping " + fields["stepping"];
  return name;
}

} // namespace tessera
