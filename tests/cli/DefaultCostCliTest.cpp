// The default cost model as a newcomer meets it: with no --cost, a run is priced on this machine
// (measured:cpu here, where the CPU plugin loads; measured:cuda where a GPU does), records what it
// resolved to, and times its candidate end to end; without a measuring backend it predicts with
// the analytic model and every headline names the device the prediction is for.
#include "CliRunner.h"

#include "session/Session.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using tessera::test::makeTempDir;
using tessera::test::readJson;
using tessera::test::runCli;

namespace {

const std::string kTeachingModel = std::string(TESSERA_SOURCE_DIR) + "/samples/teaching/phase_ordering.onnx";

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The suites run with TESSERA_COST set (tests/CMakeLists.txt); these tests see the default itself,
// with a cost cache of their own, one CPU thread named so the device key does not follow the load.
class DefaultCost : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = makeTempDir("default-cost");
    unsetenv("TESSERA_COST");
    setenv("TESSERA_COST_CACHE", (dir_ + "/costs.sqlite").c_str(), 1);
    setenv("OMP_NUM_THREADS", "1", 1);
  }
  std::string dir_;
};

} // namespace

TEST_F(DefaultCost, OptimizePricesOnThisMachineAndRecordsWhatItResolvedTo) {
  if (!TESSERA_HAVE_CPU_PLUGIN) GTEST_SKIP() << "this build has no CPU plugin (oneDNN was not found at configure time)";
  const std::string session = dir_ + "/run.tsession", json = dir_ + "/report.json";
  auto run = runCli("optimize " + kTeachingModel + " --strategy greedy --session " + session + " --json " + json);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  // No GPU on the machines these tests run on without one: the CPU's backend is the default.
  const std::string expected = mentions(run.output, "cost model      measured:cuda") ? "measured:cuda" : "measured:cpu";
  EXPECT_TRUE(mentions(run.output, "cost model      " + expected)) << run.output;
  EXPECT_FALSE(mentions(run.output, "a prediction for")) << run.output;
  EXPECT_EQ(readJson(json)["cost"], expected);
  EXPECT_TRUE(mentions(run.output, "end to end")) << "a measured default times the candidate against the original:\n" << run.output;
  tessera::Session opened = tessera::Session::open(session);
  ASSERT_EQ(opened.runs().size(), 1u);
  EXPECT_EQ(opened.runs()[0].info.costSpec, expected) << "the session names the backend, never 'auto'";
  EXPECT_EQ(opened.runs()[0].info.parameters.at("e2e"), expected.substr(std::string("measured:").size()));
}

// The plugins beside the executable always load, so the fallback itself is checked in
// tests/run/CostResolutionTest.cpp; here, an analytic default chosen through the environment.
TEST_F(DefaultCost, AnAnalyticHeadlineNamesThePredictedDevice) {
  const std::string json = dir_ + "/report.json";
  setenv("TESSERA_COST", "analytic:a100", 1);
  auto run = runCli("optimize " + kTeachingModel + " --strategy greedy --no-verify --json " + json);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_TRUE(mentions(run.output, "cost model      analytic:a100, a prediction for NVIDIA A100")) << run.output;
  EXPECT_TRUE(mentions(run.output, "not a measurement on this machine")) << run.output;
  EXPECT_EQ(readJson(json)["cost"], "analytic:a100");
}

TEST_F(DefaultCost, BenchHeadlinesNameThePredictedDevice) {
  auto run = runCli("bench --models squeezenet --strategies greedy --time-limit 2 --cost analytic:h200");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_TRUE(mentions(run.output, "cost analytic:h200, a prediction for NVIDIA H200")) << run.output;
}

TEST_F(DefaultCost, TheHelpSaysWhatTheDefaultIs) {
  auto help = runCli("optimize --help");
  ASSERT_EQ(help.exitCode, 0) << help.output;
  EXPECT_TRUE(mentions(help.output, "default auto")) << help.output;
  EXPECT_TRUE(mentions(help.output, "TESSERA_COST")) << help.output;
}
