// The host CPU's model name, part of the device key of every backend that measures on the CPU.
#pragma once

#include <fstream>
#include <string>

namespace tessera::plugins {

// "model name" from /proc/cpuinfo, or "unknown CPU".
inline std::string hostCpuModelName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(colon + 1);
    name.erase(0, name.find_first_not_of(" \t"));
    if (!name.empty()) return name;
  }
  return "unknown CPU";
}

} // namespace tessera::plugins
