// Tuning targets (and the CPU backends' device keys, which share hostCpuName) name the CPU's
// generation, not only its model name: a virtual machine may call several generations "AMD EPYC".
#include "support/HostCpu.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace tessera::tune {
namespace {

TEST(CpuTarget, NamesTheCpuGenerationAndTheThreads) {
  const std::string name = hostCpuName();
  EXPECT_EQ(name, hostCpuName()); // stable: it keys caches and tuning records
  EXPECT_EQ(cpuTarget(3), "cpu:" + name + " x3");
  EXPECT_EQ(cpuTarget(3, true), "cpu:" + name + " x3, caches flushed");
  if (std::filesystem::exists("/proc/cpuinfo")) {
    EXPECT_NE(name.rfind("unknown CPU", 0), 0u) << name;
    EXPECT_NE(name.find(", family "), std::string::npos) << name;
    EXPECT_NE(name.find(" model "), std::string::npos) << name;
    EXPECT_NE(name.find(" stepping "), std::string::npos) << name;
  }
}

} // namespace
} // namespace tessera::tune
