// Measured costs as a user meets them: a run priced by measured:cpu keeps the device's figures in
// its session, `bench --e2e` times each candidate against its original as optimize does, and
// `optimize` with a measured cost model returns the original unless the candidate is faster.
#include "CliRunner.h"

#include "session/Session.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>

// Measured costs need the CPU plugin (oneDNN found at configure time): without it these tests skip, saying why.
#define SKIP_WITHOUT_CPU_PLUGIN() \
  if (!TESSERA_HAVE_CPU_PLUGIN) GTEST_SKIP() << "this build has no CPU plugin (oneDNN was not found at configure time)"

using tessera::test::makeTempDir;
using tessera::test::runCli;
using tessera::test::readJson;

namespace {

const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";

// A cost cache of the test's own (tessera-cli reads TESSERA_COST_CACHE), so what a run measures
// is its own and nothing of the user's is touched. One CPU thread, named: otherwise each run picks
// its threads from the load average, and two runs of one test under CI's load can key their
// timings and calibration to different devices ("1 thread" against "2 threads"). A quiet host,
// injected: a busy one's timings never reach the cache, and CI's own load must not decide that.
std::string useFreshCostCache(const std::string& dir) {
  const std::string cache = dir + "/costs.sqlite";
  setenv("TESSERA_COST_CACHE", cache.c_str(), 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  setenv("TESSERA_HOST_LOAD", "0", 1);
  return cache;
}

} // namespace

TEST(MeasuredCostCli, ASessionKeepsTheDeviceFiguresItsRunWasPricedWith) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("measured-session");
  const std::string cache = useFreshCostCache(dir);
  const std::string session = dir + "/run.tsession";
  auto run = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --cost measured:cpu --no-verify --session " +
                    session);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.output.find("is unavailable"), std::string::npos) << "the CPU plugin must load here:\n" << run.output;

  auto list = runCli("costs list --cache " + cache + " --json " + dir + "/devices.json");
  ASSERT_EQ(list.exitCode, 0) << list.output;
  nlohmann::json devices = readJson(dir + "/devices.json")["devices"];
  ASSERT_EQ(devices.size(), 1u) << devices.dump();
  const std::string device = devices[0]["device"];
  EXPECT_EQ(device.rfind("cpu:", 0), 0u) << device;

  tessera::Session opened = tessera::Session::open(session);
  ASSERT_EQ(opened.runs().size(), 1u);
  EXPECT_EQ(opened.runs()[0].info.costSpec, "measured:cpu");
  const std::map<std::string, double> stored = opened.opCosts(device);
  // Every signature the run was priced with was measured into the cache; the session holds the same figures.
  EXPECT_EQ(stored.size(), devices[0]["signatures"].get<size_t>());
  for (const auto& [signature, ms] : stored) {
    EXPECT_GT(ms, 0.0) << signature;
    EXPECT_NE(signature.find('|'), std::string::npos) << signature;
  }
  EXPECT_TRUE(opened.opCosts("analytic:h200").empty());
}

// On a busy host (injected) the timings price the run but stay out of the cache, and the run says
// so once; the same profile on a quiet host then measures them again and keeps them.
TEST(MeasuredCostCli, TimingsOfABusyMachinePriceTheRunButStayOutOfTheCache) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("busy-host");
  useFreshCostCache(dir);
  const std::string model = kSamples + "/teaching/phase_ordering.onnx";
  setenv("TESSERA_HOST_LOAD", "1000", 1);
  auto busy = runCli("costs profile " + model + " --json " + dir + "/busy.json");
  setenv("TESSERA_HOST_LOAD", "0", 1);
  ASSERT_EQ(busy.exitCode, 0) << busy.output;
  const nlohmann::json first = readJson(dir + "/busy.json");
  ASSERT_GT(first["measured"].get<int>(), 0) << busy.output;
  EXPECT_EQ(first["kept_out_of_cache"], first["measured"]);
  const std::string said = "used for this run only and not kept in the cost cache";
  const size_t at = busy.output.find(said);
  ASSERT_NE(at, std::string::npos) << busy.output;
  EXPECT_EQ(busy.output.find(said, at + 1), std::string::npos) << "said once:\n" << busy.output;

  auto quiet = runCli("costs profile " + model + " --json " + dir + "/quiet.json");
  ASSERT_EQ(quiet.exitCode, 0) << quiet.output;
  const nlohmann::json second = readJson(dir + "/quiet.json");
  EXPECT_EQ(second["cache_hits"].get<int>(), 0) << "nothing of the busy run was cached";
  EXPECT_EQ(second["measured"], first["measured"]);
  EXPECT_EQ(second["kept_out_of_cache"].get<int>(), 0);
  EXPECT_EQ(quiet.output.find(said), std::string::npos) << quiet.output;

  auto again = runCli("costs profile " + model + " --json " + dir + "/again.json");
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_EQ(readJson(dir + "/again.json")["cache_hits"], first["measured"]) << "a quiet run's timings are cached";

  // A load that is not one is refused by name, as an unusable backend is: the run says so and predicts.
  setenv("TESSERA_HOST_LOAD", "very", 1);
  auto malformed = runCli("costs profile " + model + " --json " + dir + "/malformed.json");
  setenv("TESSERA_HOST_LOAD", "0", 1);
  ASSERT_EQ(malformed.exitCode, 0) << malformed.output;
  EXPECT_NE(malformed.output.find("TESSERA_HOST_LOAD='very' is not a load average"), std::string::npos) << malformed.output;
  EXPECT_EQ(readJson(dir + "/malformed.json")["cost"], "analytic:h200");
}

// The speedup's interval holds its estimate; timings are not checked beyond being positive
// (no timed unit tests: the machine may be loaded).
void expectEndToEndKeys(const nlohmann::json& report, int maxPairs) {
  ASSERT_TRUE(report.contains("e2e_speedup_pct")) << report.dump();
  EXPECT_GT(report["e2e_original_ms"].get<double>(), 0.0);
  EXPECT_GT(report["e2e_optimized_ms"].get<double>(), 0.0);
  const double pct = report["e2e_speedup_pct"];
  const auto interval = report["e2e_speedup_ci_pct"].get<std::vector<double>>();
  ASSERT_EQ(interval.size(), 2u);
  EXPECT_LE(interval[0], pct);
  EXPECT_GE(interval[1], pct);
  EXPECT_GE(report["e2e_runs"].get<int>(), 2);
  EXPECT_LE(report["e2e_runs"].get<int>(), maxPairs);
  EXPECT_EQ(report["e2e_device"].get<std::string>().rfind("cpu:", 0), 0u);
  EXPECT_NE(report["e2e_method"].get<std::string>().find("interleaved"), std::string::npos);
}

// bench --e2e does no harm as optimize does: each candidate timed against its original in
// interleaved pairs, and the table's figure is what optimize would return.
TEST(MeasuredCostCli, BenchE2eReportsWhatOptimizeWouldReturn) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("bench-e2e");
  useFreshCostCache(dir);
  const std::string json = dir + "/bench.json";
  auto run = runCli("bench --models squeezenet --strategies greedy,eqsat --cost measured:cpu --e2e --e2e-warmup 1 --e2e-runs 3 "
                    "--time-limit 20 --json " + json);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("e2e: what optimize returns"), std::string::npos) << run.output;
  nlohmann::json rows = readJson(json);
  ASSERT_EQ(rows.size(), 2u);
  for (const nlohmann::json& row : rows) {
    ASSERT_TRUE(row.contains("e2e_returned_speedup_pct")) << row.dump();
    const int kept = row["kept_original"];
    const double candidate = row["e2e_speedup_pct"], returned = row["e2e_returned_speedup_pct"];
    if (kept) {
      EXPECT_EQ(returned, 0.0) << "the original came back";
    } else {
      EXPECT_EQ(returned, candidate);
    }
    EXPECT_GE(returned, 0.0) << "what optimize returns is never slower by its own measurement";
    if (!row.contains("e2e_original_ms")) continue; // the search returned the original: nothing timed
    const double original = row["e2e_original_ms"], optimized = row["e2e_optimized_ms"];
    EXPECT_GT(original, 0.0);
    EXPECT_GT(optimized, 0.0);
  }
}

// Small e-graphs and one timed run each: the keys and their consistency are under test, not the figures.
const char* kQuickAccuracy = " --candidates 3 --node-limit 400 --time-limit 10 --rounds 1 --runs 1 --warmup 0";

TEST(MeasuredCostCli, CostsAccuracyReportsRankCorrelationAndErrorPerModelAndOverall) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("costs-accuracy");
  useFreshCostCache(dir);
  const std::string json = dir + "/accuracy.json";
  auto run = runCli("costs accuracy " + kSamples + "/squeezenet.onnx --cost measured:cpu" + kQuickAccuracy + " --json " + json);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("overall: Spearman"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("[1/1] squeezenet: timing 3 candidates"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("[1/1] squeezenet: checking each candidate's outputs on cpu:"), std::string::npos) << run.output;
  const nlohmann::json report = readJson(json);
  for (const char* key : {"spearman", "mape_pct", "pairs", "models"}) EXPECT_TRUE(report.contains(key)) << key << "\n" << report.dump();
  ASSERT_EQ(report["pairs"].size(), 3u) << report.dump();
  double error = 0;
  for (const nlohmann::json& pair : report["pairs"]) {
    EXPECT_EQ(pair["model"], "squeezenet");
    const double predicted = pair["predicted_ms"], measured = pair["measured_ms"];
    EXPECT_GT(predicted, 0.0);
    EXPECT_GT(measured, 0.0);
    EXPECT_EQ(pair["matches_interpreter"], true) << pair.dump(); // the executor's outputs were checked
    error += std::abs(predicted - measured) / measured * 100.0 / 3.0;
  }
  EXPECT_EQ(report["pairs"][0]["candidate"], "original");
  // The extraction by measured costs comes next, unless the timings on this machine make the
  // original the cheapest graph: then it is the original, kept once, and random extractions follow.
  const std::string second = report["pairs"][1]["candidate"];
  EXPECT_TRUE(second == "optimised" || second.rfind("random ", 0) == 0) << second;
  EXPECT_NE(report["pairs"][2]["candidate"], "optimised") << "the optimised graph comes right after the original";
  EXPECT_NEAR(report["mape_pct"].get<double>(), error, 1e-6);
  ASSERT_EQ(report["models"].size(), 1u);
  EXPECT_EQ(report["models"][0]["pairs"], report["pairs"]);
  EXPECT_EQ(report["models"][0]["mape_pct"], report["mape_pct"]);
  ASSERT_TRUE(report["spearman"].is_number()) << report.dump();
  // Spearman's rho of the three pairs, computed here from their ranks: 1 - 6 sum d^2 / (n (n^2 - 1)).
  auto ranks = [&](const char* key) {
    std::vector<int> rank(3, 0);
    for (size_t i = 0; i < 3; ++i)
      for (size_t j = 0; j < 3; ++j)
        if (report["pairs"][j][key].get<double>() < report["pairs"][i][key].get<double>()) ++rank[i];
    return rank;
  };
  const std::vector<int> byPrediction = ranks("predicted_ms"), byMeasurement = ranks("measured_ms");
  double squares = 0;
  for (size_t i = 0; i < 3; ++i) squares += std::pow(byPrediction[i] - byMeasurement[i], 2);
  const bool tied = std::set<int>(byPrediction.begin(), byPrediction.end()).size() < 3 ||
                    std::set<int>(byMeasurement.begin(), byMeasurement.end()).size() < 3;
  if (!tied) {
    EXPECT_NEAR(report["spearman"].get<double>(), 1.0 - 6.0 * squares / (3.0 * 8.0), 1e-9) << report.dump();
  }
}

TEST(MeasuredCostCli, CostsCalibrateStoresACalibrationThatLaterRunsUse) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("costs-calibrate");
  useFreshCostCache(dir);
  const std::string json = dir + "/calibration.json";
  auto fit = runCli("costs calibrate " + kSamples + "/squeezenet.onnx --cost measured:cpu" + kQuickAccuracy + " --json " + json);
  ASSERT_EQ(fit.exitCode, 0) << fit.output;
  const nlohmann::json calibration = readJson(json);
  EXPECT_EQ(calibration["graphs"], 3);
  EXPECT_EQ(calibration["stored"], true);
  EXPECT_GT(calibration["op_scale"].get<double>(), 0.0);
  EXPECT_GE(calibration["per_op_ms"].get<double>(), 0.0);

  auto profile = runCli("costs profile " + kSamples + "/squeezenet.onnx --cost measured:cpu");
  ASSERT_EQ(profile.exitCode, 0) << profile.output;
  EXPECT_NE(profile.output.find("calibrated to whole graphs: "), std::string::npos) << profile.output;
  EXPECT_NE(profile.output.find("fitted on 3 graphs"), std::string::npos) << profile.output;
}

// Do no harm: the report says what the device measured and whether the original came back; the
// written model is the one the report describes.
TEST(MeasuredCostCli, OptimizeTimesTheCandidateAndReturnsTheOriginalUnlessFaster) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("optimize-e2e");
  useFreshCostCache(dir);
  auto run = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --cost measured:cpu --e2e-warmup 1 --e2e-runs 4 "
                    "--out " + dir + "/opt.onnx --json " + dir + "/report.json");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  nlohmann::json report = readJson(dir + "/report.json");
  expectEndToEndKeys(report, 4);
  const bool kept = report["kept_original"];
  const double low = report["e2e_speedup_ci_pct"][0];
  EXPECT_EQ(kept, low <= 0.0) << "the candidate stays only when its whole interval is above zero";
  // A first comparison is reported beside the deciding one only when it found the candidate faster.
  if (report.contains("e2e_screening_ci_pct")) {
    EXPECT_GT(report["e2e_screening_ci_pct"][0].get<double>(), 0.0) << report.dump();
  }
  EXPECT_NE(run.output.find("end to end"), std::string::npos) << run.output;
  if (kept) {
    EXPECT_NE(run.output.find("returning the ORIGINAL model"), std::string::npos) << run.output;
    EXPECT_EQ(report["speedup_pct"].get<double>(), 0.0);
    EXPECT_EQ(report["ops_after"], report["ops_before"]);
  } else {
    EXPECT_EQ(report["speedup_pct"].get<double>(), report["candidate_speedup_pct"].get<double>());
  }
  EXPECT_TRUE(report["verified"].get<bool>());
  EXPECT_EQ(report["verified_file"], dir + "/opt.onnx");

  // --no-e2e returns the candidate untimed.
  auto untimed = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --cost measured:cpu --no-e2e --no-verify --json " +
                        dir + "/untimed.json");
  ASSERT_EQ(untimed.exitCode, 0) << untimed.output;
  EXPECT_FALSE(readJson(dir + "/untimed.json").contains("e2e_speedup_pct"));
}

TEST(MeasuredCostCli, CostsCalibrateOnABusyHostShowsTheFitButKeepsTheStoredOne) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const std::string dir = makeTempDir("costs-calibrate-busy");
  useFreshCostCache(dir);
  setenv("TESSERA_HOST_LOAD", "9.3", 1);
  auto busy = runCli("costs calibrate " + kSamples + "/squeezenet.onnx --cost measured:cpu" + kQuickAccuracy + " --json " + dir + "/busy.json");
  setenv("TESSERA_HOST_LOAD", "0", 1);
  EXPECT_EQ(busy.exitCode, 1) << busy.output;
  EXPECT_NE(busy.output.find("the calibration was NOT stored: the machine was busy (load 9.3"), std::string::npos) << busy.output;
  EXPECT_EQ(readJson(dir + "/busy.json")["stored"], false);
  auto profile = runCli("costs profile " + kSamples + "/squeezenet.onnx --cost measured:cpu");
  ASSERT_EQ(profile.exitCode, 0) << profile.output;
  EXPECT_EQ(profile.output.find("calibrated to whole graphs: "), std::string::npos) << "nothing was stored:\n" << profile.output;
}

TEST(MeasuredCostCli, CostsCalibrateNeedsAMeasuredCostModel) {
  auto run = runCli("costs calibrate " + kSamples + "/squeezenet.onnx --cost analytic:h200");
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("costs calibrate needs a measured cost spec"), std::string::npos) << run.output;
}

TEST(MeasuredCostCli, BenchE2eWithoutAMeasuredCostModelIsRefused) {
  auto run = runCli("bench --models squeezenet --strategies greedy --e2e");
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("--e2e needs a measured cost spec"), std::string::npos) << run.output;
}
