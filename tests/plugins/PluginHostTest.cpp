// The plugin host over real files: a missing directory, a file that is not a plugin, a plugin of
// another interface version, the CPU plugin itself and a second copy of it, and the CUDA plugin
// (which loads without an NVIDIA driver and then says why its device is unavailable).
#include "PluginHost.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessera::plugins;
namespace fs = std::filesystem;

namespace {

std::string freshDir(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("tessera-plugins-" + std::to_string(getpid()) + "-" + tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

const PluginRecord* recordFor(const PluginHost& host, const std::string& fileName) {
  for (const PluginRecord& record : host.plugins())
    if (fs::path(record.file).filename() == fileName) return &record;
  return nullptr;
}

} // namespace

TEST(PluginHost, ListsEveryFileWithWhyItDidNotLoad) {
  const std::string broken = freshDir("broken");
  std::ofstream(broken + "/libbogus.so") << "not an ELF file at all";
  std::ofstream(broken + "/README.txt") << "not a library, so not even tried";
  fs::copy_file(WRONG_IID_PLUGIN, broken + "/libwrong.so");
  const std::string missing = broken + "/does-not-exist";

  PluginHost host({{missing, "TESSERA_PLUGIN_PATH", false}, {broken, "TESSERA_PLUGIN_PATH", true}});
  EXPECT_EQ(host.plugins().size(), 2u);
  const PluginRecord* bogus = recordFor(host, "libbogus.so");
  ASSERT_NE(bogus, nullptr);
  EXPECT_FALSE(bogus->loaded);
  EXPECT_NE(bogus->problem.find("not a Qt plugin"), std::string::npos) << bogus->problem;
  const PluginRecord* wrong = recordFor(host, "libwrong.so");
  ASSERT_NE(wrong, nullptr);
  EXPECT_FALSE(wrong->loaded);
  EXPECT_NE(wrong->problem.find("org.tessera.Backend/0"), std::string::npos) << wrong->problem;
  EXPECT_NE(wrong->problem.find("rebuild"), std::string::npos) << wrong->problem;

  const std::string why = host.whyUnusable("cpu");
  EXPECT_NE(why.find("no 'cpu' backend plugin"), std::string::npos) << why;
  EXPECT_NE(why.find("does-not-exist (missing)"), std::string::npos) << why;
  EXPECT_NE(why.find("libwrong.so"), std::string::npos) << why;
  EXPECT_EQ(host.backend("cpu"), nullptr);
}

#ifdef CPU_PLUGIN
TEST(PluginHost, LoadsTheCpuPluginOnceAndSaysWhichCopyWon) {
  const std::string first = freshDir("first"), second = freshDir("second");
  const fs::path plugin = CPU_PLUGIN;
  fs::copy_file(plugin, first + "/" + plugin.filename().string());
  fs::copy_file(plugin, second + "/" + plugin.filename().string());
  PluginHost host({{first, "TESSERA_PLUGIN_PATH", true}, {second, "next to the executable", true}});
  ASSERT_EQ(host.plugins().size(), 2u);
  const PluginRecord& winner = host.plugins()[0];
  EXPECT_TRUE(winner.loaded) << winner.problem;
  EXPECT_TRUE(winner.available) << winner.problem;
  EXPECT_EQ(winner.name, "cpu");
  EXPECT_EQ(winner.device.rfind("cpu:", 0), 0u) << winner.device;
  EXPECT_NE(host.plugins()[1].problem.find("already loaded from " + winner.file), std::string::npos) << host.plugins()[1].problem;

  Backend* cpu = host.backend("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(host.whyUnusable("cpu"), "");
  EXPECT_NE(cpu->description().find("oneDNN"), std::string::npos);
  auto profiler = cpu->makeProfiler();
  EXPECT_EQ(profiler->device(), winner.device);
  EXPECT_NE(cpu->makeExecutor(), nullptr);
}
#endif

#ifdef CUDA_PLUGIN
TEST(PluginHost, LoadsTheCudaPluginWithOrWithoutAGpu) {
  const std::string dir = freshDir("cuda");
  const fs::path plugin = CUDA_PLUGIN;
  fs::copy_file(plugin, dir + "/" + plugin.filename().string());
  PluginHost host({{dir, "TESSERA_PLUGIN_PATH", true}});
  ASSERT_EQ(host.plugins().size(), 1u);
  const PluginRecord& record = host.plugins()[0];
  EXPECT_TRUE(record.loaded) << record.problem; // cudart is static: no libcuda.so needed to load
  EXPECT_EQ(record.name, "cuda");
  Backend* cuda = host.backend("cuda");
  ASSERT_NE(cuda, nullptr);
  EXPECT_NE(cuda->description().find("cuDNN 9."), std::string::npos) << cuda->description();
  if (record.available) {
    EXPECT_EQ(record.device.rfind("cuda:", 0), 0u) << record.device;
    EXPECT_EQ(host.whyUnusable("cuda"), "");
    EXPECT_NE(cuda->makeProfiler(), nullptr);
    EXPECT_NE(cuda->makeExecutor(), nullptr);
    return;
  }
  // No usable GPU: the record says why, the host repeats it, and asking again does not throw.
  EXPECT_FALSE(record.problem.empty());
  EXPECT_TRUE(record.device.empty());
  EXPECT_EQ(host.whyUnusable("cuda"), record.problem);
  EXPECT_EQ(cuda->unavailableReason(), record.problem);
}
#endif

TEST(PluginHost, DefaultSearchPathPutsTheEnvironmentFirst) {
  setenv("TESSERA_PLUGIN_PATH", "/nonexistent/a:/nonexistent/b", 1);
  const std::vector<PluginDirectory> path = PluginHost::defaultSearchPath();
  unsetenv("TESSERA_PLUGIN_PATH");
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[0].path, "/nonexistent/a");
  EXPECT_FALSE(path[0].exists);
  EXPECT_EQ(path[1].origin, "TESSERA_PLUGIN_PATH");
  EXPECT_EQ(fs::path(path[2].path).filename(), "plugins");
  EXPECT_EQ(path[2].origin, "next to the executable");
}
