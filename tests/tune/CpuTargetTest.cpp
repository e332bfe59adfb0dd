// Tuning targets (and the CPU backends' device keys, which share hostCpuName) name the CPU's
// generation, not only its model name: a virtual machine may call several generations "AMD EPYC".
#include "support/HostCpu.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace tessera::tune {
namespace {

TEST(CpuTarget, NamesTheCpuGenerationAndTheThreads) {
  const std::string name = hostCpuName();
  EXPECT_EQ(cpuTarget(3), "cpu:" + name + " x3");
  EXPECT_EQ(cpuTarget(3, true), "cpu:" + name + " x3, caches flushed");
  if (std::filesystem::exists("/proc/cpuinfo")) {
    EXPECT_NE(name.rfind("unknown CPU", 0), 0u) << name;
    EXPECT_NE(name.find(", family "), std::string::npos) << name;
    EXPECT_NE(name.find(" model "), std::string::npos) << name;
    EXPECT_NE(name.find(" stepping "), std::string::npos) << name;
    // It starts with /proc/cpuinfo's model name, read here on its own.
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, modelName;
    while (modelName.empty() && std::getline(cpuinfo, line)) {
      if (line.rfind("model name", 0) != 0) continue;
      modelName = line.substr(line.find(':') + 1);
      modelName.erase(0, modelName.find_first_not_of(" \t"));
    }
    if (!modelName.empty()) {
      EXPECT_EQ(name.rfind(modelName, 0), 0u) << name << " does not start with " << modelName;
    }
  }
}

} // namespace
} // namespace tessera::tune
