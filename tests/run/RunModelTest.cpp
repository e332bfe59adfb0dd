// The run facade: every setting of a plan reaches the session, do no harm decides on the device's
// timing (here an executor whose times the test chooses), a failure after the run began is marked
// failed, and a plan that cannot run is refused before anything is recorded.
#include "events/Control.h"
#include "ir/GraphHash.h"
#include "rewrite/DefaultRules.h"
#include "onnx/ModelMetadata.h"
#include "run/RunModel.h"
#include "session/Session.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include "RunTestGraphs.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace tessera;
using tessera::testing::convRelu;

namespace {

std::filesystem::path tempDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tessera-runmodel-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Three rules of the pack, as a rule file.
std::string writeRuleFile(const std::filesystem::path& path) {
  std::ofstream out(path);
  for (const char* name : {"tensat-s063 ", "tensat-s067 ", "tensat-s001 "}) {
    const std::string_view text = defaultRulesText();
    const size_t at = text.find(std::string("\n") + name);
    EXPECT_NE(at, std::string_view::npos) << name;
    out << text.substr(at + 1, text.find('\n', at + 1) - at);
  }
  return path.string();
}

// Computes with the interpreter; a whole run of a graph "takes" msForOps(op count) milliseconds.
class ScriptedExecutor final : public GraphExecutor {
public:
  explicit ScriptedExecutor(std::function<double(size_t)> msForOps) : msForOps_(std::move(msForOps)) {}
  std::string device() const override { return "scripted"; }
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override { return runGraph(graph, inputs); }
  double measureLatencyMs(const Graph& graph, int, int) override { return msForOps_(graph.opCount()); }
  std::unique_ptr<TimedGraph> prepareTiming(const Graph& graph) override { return std::make_unique<Timed>(msForOps_(graph.opCount())); }

private:
  struct Timed final : TimedGraph {
    explicit Timed(double ms) : ms(ms) {}
    double runMs() override { return ms; }
    double ms;
  };
  std::function<double(size_t)> msForOps_;
};

// Backends whose executor runs a graph with fewer ops `fewerOpsFaster` or slower.
RunBackends scriptedBackends(bool fewerOpsFaster) {
  RunBackends backends;
  const size_t originalOps = convRelu().opCount();
  backends.executor = [=](const std::string&) {
    return std::make_unique<ScriptedExecutor>([=](size_t ops) { return (ops < originalOps) == fewerOpsFaster ? 1.0 : 2.0; });
  };
  return backends;
}

RunPlan greedyPlan() {
  RunPlan plan;
  plan.request.strategy = "greedy";
  plan.request.search.timeLimitSeconds = 20;
  return plan;
}

RunRecord onlyRun(const std::string& sessionPath) {
  Session session = Session::open(sessionPath);
  std::vector<RunRecord> runs = session.runs();
  EXPECT_EQ(runs.size(), 1u);
  return runs.empty() ? RunRecord{} : runs.front();
}

} // namespace

TEST(RunModel, TheSessionHoldsEveryFieldOfThePlan) {
  const std::filesystem::path dir = tempDir("fields");
  RunPlan plan;
  plan.request.strategy = "greedy";
  plan.request.costSpec = "analytic:a100";
  plan.request.search.seed = 5;
  plan.request.search.nodeLimit = 40;
  plan.request.search.timeLimitSeconds = 7;
  plan.request.search.extractMethod = "dag";
  plan.request.search.parameters = {{"budget", "30"}};
  plan.request.verify = true;
  plan.rules = {writeRuleFile(dir / "three.rules"), {"tensat-s063"}, {"tensat-s067"}};
  plan.verifyTrials = 2;
  plan.endToEnd = {true, 2, 4};
  plan.deploy = "scripted";
  plan.exportPath = (dir / "out" / "optimized.onnx").string();
  plan.sessionPath = (dir / "runs.tsession").string();
  plan.recordedModel = recordedModelOf((dir / "conv_relu.onnx").string());
  Control control;
  RunOutcome outcome = runModel(convRelu(), plan, scriptedBackends(true), control, nullptr);

  const RunRecord run = onlyRun(plan.sessionPath);
  EXPECT_EQ(run.id, outcome.runId);
  EXPECT_EQ(run.info.modelId, outcome.modelId);
  EXPECT_EQ(run.info.strategy, plan.request.strategy);
  EXPECT_EQ(run.info.costSpec, plan.request.costSpec);
  EXPECT_EQ(run.info.seed, plan.request.search.seed);
  std::map<std::string, std::string> p = run.info.parameters;
  EXPECT_EQ(p["node_limit"], "40");
  EXPECT_EQ(std::stod(p["time_limit"]), 7.0);
  EXPECT_EQ(p["extract"], "dag");
  EXPECT_EQ(p["budget"], "30");
  EXPECT_EQ(p["verify"], "1");
  EXPECT_EQ(p["rules"], plan.rules.file);
  EXPECT_EQ(p["rules_hash"], outcome.rulesHash);
  EXPECT_EQ(p["rules_hash"].size(), 16u);
  EXPECT_EQ(p["pins"], "tensat-s063");
  EXPECT_EQ(p["vetoes"], "tensat-s067");
  EXPECT_EQ(p["verify_trials"], "2");
  EXPECT_EQ(p["e2e"], "scripted");
  EXPECT_EQ(p["e2e_warmup"], "2");
  EXPECT_EQ(p["e2e_runs"], "4");
  EXPECT_EQ(p["out"], plan.exportPath);
  EXPECT_EQ(p["deploy"], "scripted");
  EXPECT_EQ(outcome.rulesUsed, 3u);
  EXPECT_TRUE(std::filesystem::exists(plan.exportPath));
  // The file says which runtime it was checked for and what was measured there.
  ASSERT_TRUE(outcome.deployCheck && outcome.deployCheck->outcome && outcome.deployCheck->outcome->comparison);
  EXPECT_EQ(outcome.deployCheck->runtime, "scripted");
  EXPECT_TRUE(outcome.deployCheck->skipped.empty()) << outcome.deployCheck->skipped;
  const DoNoHarmOutcome& timed = *outcome.deployCheck->outcome;
  const std::map<std::string, std::string> metadata = onnx_io::readMetadata(readFileBytes(plan.exportPath, 1 << 20));
  EXPECT_EQ(metadata.at("tessera.deploy_runtime"), "scripted");
  EXPECT_EQ(metadata.at("tessera.deploy_device"), "scripted");
  EXPECT_EQ(metadata.at("tessera.kept_original"), "0");
  EXPECT_GT(timed.returnedSpeedupPct(), 0);
  EXPECT_EQ(metadata.at("tessera.deploy_speedup_pct"), std::to_string(timed.returnedSpeedupPct()));
  EXPECT_EQ(metadata.at("tessera.cost"), "analytic:a100");
  EXPECT_TRUE(outcome.result.verified) << outcome.result.verifyProblem;
  ASSERT_TRUE(run.summary);
  EXPECT_DOUBLE_EQ(run.summary->speedupPct, outcome.result.speedupPct) << "the session records what the run returns";

  // Another rule file's text is another hash: the session tells the two apart.
  std::ofstream(plan.rules.file, std::ios::app) << "# a comment changes the file\n";
  plan.sessionPath.clear();
  Control again;
  EXPECT_NE(runModel(convRelu(), plan, scriptedBackends(true), again, nullptr).rulesHash, outcome.rulesHash);
  std::filesystem::remove_all(dir);
}

TEST(RunModel, TheOriginalIsKeptAndRecordedWhenTheCandidateIsNotFasterOnTheDevice) {
  const std::filesystem::path dir = tempDir("kept");
  RunPlan plan = greedyPlan();
  plan.deploy = "scripted";
  plan.sessionPath = (dir / "runs.tsession").string();
  plan.recordedModel = recordedModelOf("conv_relu.onnx");
  Control control;
  RunOutcome slower = runModel(convRelu(), plan, scriptedBackends(false), control, nullptr);
  ASSERT_TRUE(slower.deployCheck && slower.deployCheck->outcome);
  ASSERT_TRUE(slower.deployCheck->outcome->comparison) << "the search found a candidate to time";
  EXPECT_GT(slower.deployCheck->outcome->candidateSpeedupPct, 0) << "the cost model predicted it faster";
  EXPECT_TRUE(slower.deployCheck->keptOriginal());
  EXPECT_TRUE(structurallyEqual(slower.result.best, convRelu()));
  EXPECT_EQ(slower.result.speedupPct, 0);
  const RunRecord run = onlyRun(plan.sessionPath);
  ASSERT_TRUE(run.summary);
  EXPECT_EQ(run.summary->speedupPct, 0) << "the session's summary is what the run returned";

  plan.sessionPath.clear();
  Control again;
  RunOutcome faster = runModel(convRelu(), plan, scriptedBackends(true), again, nullptr);
  ASSERT_TRUE(faster.deployCheck && faster.deployCheck->outcome);
  EXPECT_FALSE(faster.deployCheck->keptOriginal());
  EXPECT_LT(faster.result.best.opCount(), convRelu().opCount());
  EXPECT_GT(faster.result.speedupPct, 0);
  std::filesystem::remove_all(dir);
}

TEST(RunModel, WithoutAnExecutorDoNoHarmIsSkippedAndSaysWhy) {
  RunPlan plan = greedyPlan();
  plan.deploy = "cpu";
  Control control;
  RunOutcome outcome = runModel(convRelu(), plan, RunBackends{}, control, nullptr);
  ASSERT_TRUE(outcome.deployCheck) << "a check was asked for: the outcome says where and why it did not run";
  EXPECT_EQ(outcome.deployCheck->runtime, "cpu");
  EXPECT_FALSE(outcome.deployCheck->outcome);
  EXPECT_FALSE(outcome.deployCheck->keptOriginal());
  EXPECT_NE(outcome.deployCheck->skipped.find(kNoPluginSupport), std::string::npos) << outcome.deployCheck->skipped;
  EXPECT_LT(outcome.result.best.opCount(), convRelu().opCount()) << "the candidate stays as the search returned it";

  plan.endToEnd.enabled = false;
  Control again;
  RunOutcome unchecked = runModel(convRelu(), plan, RunBackends{}, again, nullptr);
  EXPECT_FALSE(unchecked.deployCheck) << "no check was asked for";
}

TEST(RunModel, AFailureAfterTheRunBeganIsRecordedAsFailed) {
  const std::filesystem::path dir = tempDir("failed");
  RunPlan plan = greedyPlan();
  plan.exportPath = "/dev/null/optimized.onnx";
  plan.sessionPath = (dir / "runs.tsession").string();
  plan.recordedModel = recordedModelOf("conv_relu.onnx");
  Control control;
  EXPECT_THROW(runModel(convRelu(), plan, RunBackends{}, control, nullptr), Error);
  const RunRecord run = onlyRun(plan.sessionPath);
  ASSERT_TRUE(run.finishedAt && run.summary);
  EXPECT_EQ(run.summary->stopReason.rfind("failed: ", 0), 0u) << run.summary->stopReason;
  EXPECT_NE(run.summary->stopReason.find("/dev/null/optimized.onnx"), std::string::npos) << run.summary->stopReason;
  std::filesystem::remove_all(dir);
}

TEST(RunModel, APlanThatCannotRunIsRefusedBeforeAnythingIsRecorded) {
  const std::filesystem::path dir = tempDir("refused");
  RunPlan plan = greedyPlan();
  plan.sessionPath = (dir / "runs.tsession").string();
  plan.recordedModel = recordedModelOf("conv_relu.onnx");
  plan.rules.pins = {"no-such-rule"};
  Control control;
  try {
    runModel(convRelu(), plan, RunBackends{}, control, nullptr);
    ADD_FAILURE() << "an unknown pinned rule was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-rule"), std::string::npos) << e.what();
  }
  plan.rules = {};
  plan.request.strategy = "annealing";
  EXPECT_THROW(runModel(convRelu(), plan, RunBackends{}, control, nullptr), Error);
  plan.request.strategy = "greedy";
  plan.verifyTrials = 0;
  EXPECT_THROW(runModel(convRelu(), plan, RunBackends{}, control, nullptr), Error);
  EXPECT_FALSE(std::filesystem::exists(plan.sessionPath)) << "nothing was recorded";
  std::filesystem::remove_all(dir);
}

TEST(RunModel, AnUnwritableSessionIsReportedWhenRecordingIsNotRequired) {
  RunPlan plan = greedyPlan();
  plan.sessionPath = "/dev/null/nowhere.tsession";
  plan.recordedModel = recordedModelOf("conv_relu.onnx");
  Control control;
  EXPECT_THROW(runModel(convRelu(), plan, RunBackends{}, control, nullptr), Error) << "the CLI asks for its session";
  plan.recordingRequired = false;
  Control again;
  RunOutcome outcome = runModel(convRelu(), plan, RunBackends{}, again, nullptr);
  EXPECT_NE(outcome.recordingError.find("nowhere.tsession"), std::string::npos) << outcome.recordingError;
  EXPECT_EQ(outcome.runId, 0);
  EXPECT_TRUE(outcome.result.verified);
}
