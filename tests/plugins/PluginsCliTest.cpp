// `tessera-cli plugins` and `costs` as a user runs them: what loaded and why not, measuring once
// per device (a second run measures nothing), moving a table between caches, and falling back to
// the analytic model with a clear line when a backend is unusable, tuned kernels of the default
// tuning database used by measured:cpu with no flags, and `tune --target cuda`.
#include "CliRunner.h"

#include "onnx/OnnxExport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

// Backends this build may lack (found or not at configure time): their tests skip, saying why.
#define SKIP_WITHOUT_CPU_PLUGIN() \
  if (!TESSERA_HAVE_CPU_PLUGIN) GTEST_SKIP() << "this build has no CPU plugin (oneDNN was not found at configure time)"
#define SKIP_WITHOUT_CUDA_PLUGIN() \
  if (!TESSERA_HAVE_CUDA_PLUGIN || !TESSERA_HAVE_PLUGIN_HOST) GTEST_SKIP() << "this build has no CUDA plugin (no CUDA toolkit at configure time)"
#define SKIP_WITHOUT_ORT_PLUGIN() \
  if (!TESSERA_HAVE_ORT_PLUGIN) GTEST_SKIP() << "this build has no ONNX Runtime plugin (no Qt 6 Core for plugins at configure time)"

using namespace tessera::test;

namespace {

const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples/";

// Every test gets its own cost cache (the CLI's default location comes from the environment) and
// one named CPU thread, so two runs key their timings to the same device whatever the load average,
// and a quiet host (injected), so that what they measure is cached whatever CI's load.
class PluginsCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = makeTempDir("plugins-cli");
    setenv("TESSERA_COST_CACHE", (dir_ + "/costs.sqlite").c_str(), 1);
    setenv("OMP_NUM_THREADS", "1", 1);
    setenv("TESSERA_HOST_LOAD", "0", 1);
    unsetenv("TESSERA_PLUGIN_PATH");
  }
  void TearDown() override {
    unsetenv("TESSERA_COST_CACHE");
    unsetenv("OMP_NUM_THREADS");
    unsetenv("TESSERA_HOST_LOAD");
    unsetenv("TESSERA_PLUGIN_PATH");
  }
  // Whether `tessera-cli plugins` reports a usable cuda backend (a GPU machine with the plugin).
  bool cudaAvailable() {
    const CliResult result = runCli("plugins --json " + dir_ + "/probe.json");
    if (result.exitCode != 0) return false;
    const nlohmann::json report = readJson(dir_ + "/probe.json");
    for (const auto& plugin : report["plugins"])
      if (plugin["name"] == "cuda" && plugin["available"].get<bool>()) return true;
    return false;
  }
  // A model of one 16x16 MatMul by a weight, the smallest the tuner takes: its path.
  std::string writeMatMulModel() {
    using namespace tessera;
    Graph g;
    const TensorType square{DType::Float32, {16, 16}};
    const NodeId x = g.addInput("x", square);
    const NodeId w = g.addWeight("w", Tensor::splat(square, 0.1));
    g.addOutput({g.addNode(OpKind::MatMul, {{x}, {w}})}, "y");
    const std::string model = dir_ + "/matmul.onnx";
    onnx_io::exportOnnxFile(g, model);
    return model;
  }
  std::string dir_;
};

} // namespace

TEST_F(PluginsCli, SaysPluginsAreUnavailableInABuildWithoutQt) {
  if (TESSERA_HAVE_PLUGIN_HOST) GTEST_SKIP() << "this build has plugin support (Qt 6 Core was found)";
  const CliResult result = runCli("plugins --json " + dir_ + "/plugins.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("built without Qt 6 Core"), std::string::npos) << result.output;
  EXPECT_FALSE(readJson(dir_ + "/plugins.json")["plugin_support"].get<bool>());
}

TEST_F(PluginsCli, ListsSearchPathAndWhyFilesDidNotLoad) {
  if (!TESSERA_HAVE_PLUGIN_HOST) GTEST_SKIP() << "this build has no plugin support (Qt 6 Core was not found)";
  std::ofstream(dir_ + "/libbogus.so") << "garbage";
  setenv("TESSERA_PLUGIN_PATH", (dir_ + ":" + dir_ + "/missing").c_str(), 1);
  const CliResult result = runCli("plugins --json " + dir_ + "/plugins.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find(dir_ + "/missing  [TESSERA_PLUGIN_PATH]  (missing)"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("libbogus.so"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("not a Qt plugin"), std::string::npos) << result.output;
  const nlohmann::json report = readJson(dir_ + "/plugins.json");
  EXPECT_TRUE(report["plugin_support"].get<bool>());
  ASSERT_GE(report["search_path"].size(), 3u);
  EXPECT_EQ(report["search_path"][2]["origin"], "next to the executable");
  bool sawCpu = false;
  for (const auto& plugin : report["plugins"]) {
    if (plugin["name"] == "cpu") sawCpu = plugin["available"].get<bool>();
    if (std::filesystem::path(plugin["file"].get<std::string>()).filename() == "libbogus.so") {
      EXPECT_FALSE(plugin["loaded"].get<bool>());
    }
  }
  EXPECT_EQ(sawCpu, bool(TESSERA_HAVE_CPU_PLUGIN));
}

TEST_F(PluginsCli, UnusableBackendFallsBackToTheAnalyticModelAndSaysSo) {
  if (cudaAvailable()) GTEST_SKIP() << "measured:cuda is usable on this machine: nothing falls back";
  const CliResult result = runCli("costs profile " + kSamples + "squeezenet.onnx --cost measured:cuda --json " + dir_ + "/r.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("measured:cuda is unavailable: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("using analytic:h200, a prediction for NVIDIA H200"), std::string::npos) << result.output;
  EXPECT_EQ(readJson(dir_ + "/r.json")["cost"], "analytic:h200");
}

TEST_F(PluginsCli, SecondProfileOfAModelMeasuresNothing) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string model = kSamples + "squeezenet.onnx";
  const CliResult first = runCli("costs profile " + model + " --json " + dir_ + "/first.json");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const nlohmann::json a = readJson(dir_ + "/first.json");
  EXPECT_EQ(a["cost"], "measured:cpu");
  EXPECT_GT(a["measured"].get<int>(), 5);
  EXPECT_EQ(a["cache_hits"].get<int>(), 0);

  const CliResult second = runCli("costs profile " + model + " --json " + dir_ + "/second.json");
  ASSERT_EQ(second.exitCode, 0) << second.output;
  const nlohmann::json b = readJson(dir_ + "/second.json");
  EXPECT_EQ(b["measured"].get<int>(), 0) << second.output;
  EXPECT_EQ(b["cache_hits"], a["measured"]);
  EXPECT_EQ(b["models"][0]["total_ms"], a["models"][0]["total_ms"]); // the cache answers exactly
  EXPECT_NE(second.output.find("0 signatures measured"), std::string::npos) << second.output;
}

// `tune MODEL` then `costs profile MODEL`: the tuning database beside the (test's) cost cache is
// where both look, and `plugins` and `costs list` say how many tuned kernels are in use.
TEST_F(PluginsCli, TunedKernelsOfTheDefaultDatabaseAreUsedWithoutFlags) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string model = writeMatMulModel();

  const CliResult tuned = runCli("tune " + model + " --trials 2 --search random --json " + dir_ + "/tune.json");
  ASSERT_EQ(tuned.exitCode, 0) << tuned.output;
  EXPECT_EQ(readJson(dir_ + "/tune.json")["database"], dir_ + "/tuning.sqlite");
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/tuning.sqlite"));

  const CliResult plugins = runCli("plugins");
  ASSERT_EQ(plugins.exitCode, 0) << plugins.output;
  EXPECT_NE(plugins.output.find(", 1 tuned kernel "), std::string::npos) << plugins.output;

  const CliResult profile = runCli("costs profile " + model + " --json " + dir_ + "/profile.json");
  ASSERT_EQ(profile.exitCode, 0) << profile.output;
  const nlohmann::json report = readJson(dir_ + "/profile.json");
  EXPECT_NE(report["device"].get<std::string>().find(", 1 tuned kernel "), std::string::npos) << report.dump();
  EXPECT_EQ(report["measured"], 1);

  const CliResult list = runCli("costs list --json " + dir_ + "/list.json");
  ASSERT_EQ(list.exitCode, 0) << list.output;
  EXPECT_NE(list.output.find("1 tuned kernel, faster than oneDNN for "), std::string::npos) << list.output;
  const nlohmann::json targets = readJson(dir_ + "/list.json")["tuning"]["targets"];
  ASSERT_EQ(targets.size(), 1u) << targets.dump();
  EXPECT_EQ(targets[0]["kernels"], 1);
  EXPECT_EQ(targets[0]["signatures_timed"], 1); // the profile timed the matmul both ways

  // --db :memory: keeps nothing, so the default database is unchanged.
  const auto before = std::filesystem::last_write_time(dir_ + "/tuning.sqlite");
  const CliResult inMemory = runCli("tune matmul:8x8x8 --trials 1 --search random --db :memory:");
  ASSERT_EQ(inMemory.exitCode, 0) << inMemory.output;
  EXPECT_EQ(std::filesystem::last_write_time(dir_ + "/tuning.sqlite"), before);
}

TEST_F(PluginsCli, KernelsTunedWithFlushedCachesAreRecordedApartAndUsedWithoutFlags) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string model = writeMatMulModel();

  const CliResult tuned = runCli("tune " + model + " --trials 2 --search random --flush-caches --json " + dir_ + "/tune.json");
  ASSERT_EQ(tuned.exitCode, 0) << tuned.output;
  const nlohmann::json signature = readJson(dir_ + "/tune.json")["signatures"][0];
  EXPECT_EQ(signature["flush_caches"], true) << signature.dump();
  EXPECT_TRUE(signature["target"].get<std::string>().ends_with(", caches flushed")) << signature.dump();

  const CliResult profile = runCli("costs profile " + model + " --json " + dir_ + "/profile.json");
  ASSERT_EQ(profile.exitCode, 0) << profile.output;
  EXPECT_NE(readJson(dir_ + "/profile.json")["device"].get<std::string>().find(", 1 tuned kernel "), std::string::npos);
  const CliResult list = runCli("costs list --json " + dir_ + "/list.json");
  ASSERT_EQ(list.exitCode, 0) << list.output;
  const nlohmann::json targets = readJson(dir_ + "/list.json")["tuning"]["targets"];
  ASSERT_EQ(targets.size(), 1u) << targets.dump();
  EXPECT_TRUE(targets[0]["target"].get<std::string>().ends_with(", caches flushed")) << targets.dump();
  EXPECT_EQ(targets[0]["signatures_timed"], 1); // the choice is kept with the kernel's record

  const CliResult onGpu = runCli("tune matmul:8x8x8 --target cuda --flush-caches --db :memory:");
  EXPECT_NE(onGpu.exitCode, 0);
  EXPECT_NE(onGpu.output.find("--flush-caches flushes the CPU's caches"), std::string::npos) << onGpu.output;
}

TEST_F(PluginsCli, ExportImportAndTableSpecMoveADeviceBetweenMachines) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string model = kSamples + "squeezenet.onnx";
  ASSERT_EQ(runCli("costs profile " + model + " --json " + dir_ + "/measured.json").exitCode, 0);
  const CliResult exported = runCli("costs export " + dir_ + "/table.json");
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  const nlohmann::json table = readJson(dir_ + "/table.json");
  EXPECT_EQ(table["schema_version"], 1);
  EXPECT_EQ(table["device"].get<std::string>().rfind("cpu:", 0), 0u);

  // "Another machine": an empty cache imports the table...
  const std::string other = dir_ + "/other.sqlite";
  const CliResult imported = runCli("costs import " + dir_ + "/table.json --cache " + other);
  ASSERT_EQ(imported.exitCode, 0) << imported.output;
  const CliResult listed = runCli("costs list --cache " + other + " --json " + dir_ + "/list.json");
  ASSERT_EQ(listed.exitCode, 0) << listed.output;
  EXPECT_EQ(readJson(dir_ + "/list.json")["devices"][0]["signatures"], table["costs"].size());

  // ...or answers from the file directly, with the same total and nothing estimated.
  const CliResult fromTable = runCli("costs profile " + model + " --cost table:" + dir_ + "/table.json --json " + dir_ + "/t.json");
  ASSERT_EQ(fromTable.exitCode, 0) << fromTable.output;
  EXPECT_NEAR(readJson(dir_ + "/t.json")["models"][0]["total_ms"].get<double>(),
              readJson(dir_ + "/measured.json")["models"][0]["total_ms"].get<double>(), 1e-9);
  EXPECT_NE(fromTable.output.find("0 estimated"), std::string::npos) << fromTable.output;
}

// Built with the CUDA plugin: `plugins` lists it with its state; without a GPU it is unavailable
// with the device's reason, and measured:cuda falls back to analytic:h200 repeating that reason.
TEST_F(PluginsCli, ListsTheCudaPluginAndWithoutAGpuFallsBackWithItsReason) {
  SKIP_WITHOUT_CUDA_PLUGIN();
  const CliResult listed = runCli("plugins --json " + dir_ + "/plugins.json");
  ASSERT_EQ(listed.exitCode, 0) << listed.output;
  const nlohmann::json report = readJson(dir_ + "/plugins.json");
  nlohmann::json cuda;
  for (const auto& plugin : report["plugins"])
    if (plugin["name"] == "cuda") cuda = plugin;
  ASSERT_FALSE(cuda.is_null()) << listed.output;
  EXPECT_TRUE(cuda["loaded"].get<bool>()) << listed.output;
  if (cuda["available"].get<bool>()) {
    EXPECT_EQ(cuda["device"].get<std::string>().rfind("cuda:", 0), 0u) << listed.output;
    GTEST_SKIP() << "a GPU is usable here (" << cuda["device"].get<std::string>() << "): measured:cuda does not fall back";
  }
  const std::string why = cuda["problem"].get<std::string>();
  EXPECT_FALSE(why.empty()) << listed.output;
  EXPECT_NE(listed.output.find("cuda   unavailable"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("why: " + why), std::string::npos) << listed.output;

  const CliResult costs = runCli("costs profile " + kSamples + "squeezenet.onnx --cost measured:cuda --json " + dir_ + "/r.json");
  ASSERT_EQ(costs.exitCode, 0) << costs.output;
  EXPECT_NE(costs.output.find("measured:cuda is unavailable: " + why + "; using analytic:h200, a prediction for NVIDIA H200"), std::string::npos) << costs.output;
  EXPECT_EQ(readJson(dir_ + "/r.json")["cost"], "analytic:h200");
}

// `tune --target cuda`: without a usable GPU (or without the plugin) a clean error that says why,
// and nothing tuned; with one, the CPU report's keys, a cuda:<device> target and records in --db.
TEST_F(PluginsCli, TuneOnCudaSaysWhyWithoutAGpu) {
  if (cudaAvailable()) GTEST_SKIP() << "a GPU is usable here: TuneOnCudaReportsLikeTheCpu runs instead";
  const CliResult result = runCli("tune matmul:64x64x64 --target cuda --trials 2 --json " + dir_ + "/t.json");
  expectCleanError(result, "tune --target cuda: ");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/t.json"));
  if (TESSERA_HAVE_CUDA_PLUGIN && TESSERA_HAVE_PLUGIN_HOST) {
    EXPECT_EQ(result.output.find("no 'cuda' backend plugin"), std::string::npos) << "the plugin was built: " << result.output;
  }
}

TEST_F(PluginsCli, TuneOnCudaReportsLikeTheCpu) {
  SKIP_WITHOUT_CUDA_PLUGIN();
  if (!cudaAvailable()) GTEST_SKIP() << "no usable GPU (tessera-cli plugins says why): TuneOnCudaSaysWhyWithoutAGpu runs instead";
  const CliResult result = runCli("tune matmul:128x128x128,relu --target cuda --trials 8 --batch 4 --search random --db " + dir_ +
                                  "/tune.sqlite --json " + dir_ + "/t.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const nlohmann::json report = readJson(dir_ + "/t.json");
  for (const char* key : {"best_gflops", "baseline_gflops", "trials", "verified", "best_trace", "best_gflops_by_trial"})
    EXPECT_TRUE(report.contains(key)) << key;
  EXPECT_TRUE(report["verified"].get<bool>());
  EXPECT_EQ(report["trials"].get<int>(), 8);
  EXPECT_GT(report["best_gflops"].get<double>(), 0);
  EXPECT_EQ(report["target"].get<std::string>().rfind("cuda:", 0), 0u) << report["target"];
}

TEST_F(PluginsCli, BadTablesAndEmptyCachesGetClearErrors) {
  const std::string newer = dir_ + "/newer.json";
  std::ofstream(newer) << R"({"format": "tessera-cost-table", "schema_version": 7, "device": "cpu:x", "costs": {}})";
  const CliResult imported = runCli("costs import " + newer);
  EXPECT_EQ(imported.exitCode, 1) << imported.output;
  EXPECT_NE(imported.output.find(newer + ": is cost table schema 7"), std::string::npos) << imported.output;

  const CliResult asSpec = runCli("costs profile " + kSamples + "squeezenet.onnx --cost table:" + newer);
  EXPECT_EQ(asSpec.exitCode, 1) << asSpec.output;
  EXPECT_NE(asSpec.output.find("schema 7"), std::string::npos) << asSpec.output;

  const CliResult empty = runCli("costs export " + dir_ + "/nothing.json");
  EXPECT_EQ(empty.exitCode, 1) << empty.output;
  EXPECT_NE(empty.output.find("holds no measured costs"), std::string::npos) << empty.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/nothing.json"));
}

// `costs forget`: one device's costs go (a cutoff before they were measured keeps them), the
// others stay, and a device or time it cannot use is a clear error that removes nothing.
TEST_F(PluginsCli, ForgetDropsOneDevicesCostsAndNamesWhatItCannot) {
  const std::string a = dir_ + "/a.json", b = dir_ + "/b.json";
  std::ofstream(a) << R"({"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:A", "costs": {"Relu|x|y|": 0.5, "Tanh|x|y|": 1.5}})";
  std::ofstream(b) << R"({"format": "tessera-cost-table", "schema_version": 1, "device": "cpu:B", "costs": {"Relu|x|y|": 0.7}})";
  ASSERT_EQ(runCli("costs import " + a).exitCode, 0);
  ASSERT_EQ(runCli("costs import " + b).exitCode, 0);

  const CliResult early = runCli("costs forget --device cpu:A --before 2020-01-01 --json " + dir_ + "/early.json");
  ASSERT_EQ(early.exitCode, 0) << early.output;
  EXPECT_EQ(readJson(dir_ + "/early.json")["forgotten"], 0);
  EXPECT_EQ(readJson(dir_ + "/early.json")["left"], 2);

  const CliResult unknown = runCli("costs forget --device cpu:C");
  EXPECT_EQ(unknown.exitCode, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("costs.sqlite: holds no costs for device 'cpu:C':"), std::string::npos) << unknown.output;
  const CliResult badTime = runCli("costs forget --device cpu:A --before soon");
  EXPECT_EQ(badTime.exitCode, 1) << badTime.output;
  EXPECT_NE(badTime.output.find("cannot forget costs before 'soon'"), std::string::npos) << badTime.output;

  const CliResult all = runCli("costs forget --device cpu:A --json " + dir_ + "/all.json");
  ASSERT_EQ(all.exitCode, 0) << all.output;
  EXPECT_EQ(readJson(dir_ + "/all.json")["forgotten"], 2);
  ASSERT_EQ(runCli("costs list --json " + dir_ + "/list.json").exitCode, 0);
  const nlohmann::json devices = readJson(dir_ + "/list.json")["devices"];
  ASSERT_EQ(devices.size(), 1u) << devices.dump();
  EXPECT_EQ(devices[0]["device"], "cpu:B");
}

TEST_F(PluginsCli, MeasuredOrtWithoutOnnxRuntimeFallsBackAndSaysWhatIsMissing) {
  SKIP_WITHOUT_ORT_PLUGIN();
  const std::string prefix = dir_ + "/no-ort";
  setenv("TESSERA_ORT_PREFIX", prefix.c_str(), 1);
  const CliResult listed = runCli("plugins");
  const CliResult result = runCli("costs profile " + kSamples + "squeezenet.onnx --cost measured:ort --json " + dir_ + "/r.json");
  unsetenv("TESSERA_ORT_PREFIX");
  EXPECT_NE(listed.output.find("onnxruntime-node is not installed in " + prefix), std::string::npos) << listed.output;
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("measured:ort is unavailable: npm's onnxruntime-node is not installed in " + prefix), std::string::npos)
      << result.output;
  EXPECT_EQ(readJson(dir_ + "/r.json")["cost"], "analytic:h200");
}

TEST_F(PluginsCli, MeasuredOrtProfilesAModelInOnnxRuntime) {
  SKIP_WITHOUT_ORT_PLUGIN();
  const CliResult listed = runCli("plugins");
  if (listed.output.find("ort    available") == std::string::npos)
    GTEST_SKIP() << "measured:ort is unavailable here (.ci/install-deps.sh installs it):\n" << listed.output;
  const CliResult result = runCli("costs profile " + kSamples + "squeezenet.onnx --cost measured:ort --json " + dir_ + "/r.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const nlohmann::json report = readJson(dir_ + "/r.json");
  EXPECT_EQ(report["cost"], "measured:ort");
  EXPECT_GT(report["measured"].get<int>(), 5);
  EXPECT_GT(report["models"][0]["total_ms"].get<double>(), 0.0);
}
