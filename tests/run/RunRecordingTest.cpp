// One run recorded in a session, as the CLI and the explorer both record it: the model once, every
// parameter of the request, the events, the candidates, or why the run failed.
#include "cost/CostModel.h"
#include "events/Control.h"
#include "rewrite/DefaultRules.h"
#include "run/RunRecording.h"
#include "session/Session.h"
#include "support/Error.h"

#include "RunTestGraphs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tessera;
using tessera::testing::convRelu;

namespace {

std::string tempSession(const std::string& name) {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("tessera-run-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove(path);
  return path.string();
}

// Runs `request` on `graph` with the default pack, recording into `recording`.
SearchResult runRecorded(RunRecording& recording, const RunRequest& request, const Graph& graph) {
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  std::unique_ptr<CostModel> cost = makeCostModel(request.costSpec);
  Control control;
  EventStream events;
  recording.begin(request);
  events.attach(&recording.sink());
  SearchResult result = makeStrategy(request.strategy)->run(SearchInput{graph, list, *cost, control, events, request.search});
  recording.finish(result, *cost);
  return result;
}

} // namespace

TEST(RunInfo, RecordsEveryParameterOfTheRequest) {
  RunRequest request;
  request.strategy = "eqsat";
  request.costSpec = "analytic:a100";
  request.search.seed = 3;
  request.search.nodeLimit = 1234;
  request.search.iterationLimit = 7;
  request.search.multiIterations = 2;
  request.search.extractMethod = "ilp";
  request.search.parameters = {{"tensat", "1"}};
  request.verify = false;
  RunInfo info = runInfoFor(request, 5);
  EXPECT_EQ(info.modelId, 5);
  EXPECT_EQ(info.strategy, "eqsat");
  EXPECT_EQ(info.costSpec, "analytic:a100");
  EXPECT_EQ(info.seed, 3u);
  EXPECT_EQ(info.parameters["node_limit"], "1234");
  EXPECT_EQ(info.parameters["iteration_limit"], "7");
  EXPECT_EQ(info.parameters["k_multi"], "2");
  EXPECT_EQ(info.parameters["extract"], "ilp");
  EXPECT_EQ(info.parameters["tensat"], "1");
  EXPECT_EQ(info.parameters["verify"], "0");

  request.strategy = "mcts";
  EXPECT_EQ(runInfoFor(request, 5).parameters.count("k_multi"), 0u) << "eqsat's settings are not an mcts run's";
}

TEST(RunInfo, ParametersAreNameValuePairs) {
  EXPECT_EQ(parseRunParameters({"simulations=64", "rebase=0"}), (std::map<std::string, std::string>{{"rebase", "0"}, {"simulations", "64"}}));
  EXPECT_EQ(parseRunParameters({"extract_main=ocf=x"}).at("extract_main"), "ocf=x");
  EXPECT_EQ(runParameterPairs(parseRunParameters({"rebase=0", "simulations=64"})), (std::vector<std::string>{"rebase=0", "simulations=64"}));
  EXPECT_THROW(parseRunParameters({"simulations"}), Error);
  EXPECT_THROW(parseRunParameters({"=64"}), Error);
}

TEST(RunRecording, TwoRunsOfOneModelFileAddOneModelAndTwoRunsWithTheirParameters) {
  const std::string path = tempSession("two-runs.tsession");
  const Graph graph = convRelu();
  RunRequest request;
  request.strategy = "greedy";
  request.search.parameters = {{"budget", "50"}};
  {
    RunRecording recording(path, recordedModelOf("models/conv_relu.onnx"), graph);
    SearchResult result = runRecorded(recording, request, graph);
    Session session = Session::open(path);
    std::optional<RunRecord> run = session.run(recording.runId());
    ASSERT_TRUE(run);
    EXPECT_EQ(run->info.parameters["budget"], "50");
    ASSERT_TRUE(run->summary);
    EXPECT_EQ(run->summary->stopReason, result.stopReason);
    EXPECT_GT(session.eventCount(recording.runId()), 0u);
    EXPECT_EQ(session.candidates(recording.runId()).size(), result.candidates.size());
  }
  RunRecording again(path, recordedModelOf("models/conv_relu.onnx"), graph);
  request.strategy = "taso";
  runRecorded(again, request, graph);
  Session session = Session::open(path);
  ASSERT_EQ(session.models().size(), 1u) << "the same file recorded again is found, not stored twice";
  EXPECT_EQ(session.models().front().name, "conv_relu");
  EXPECT_TRUE(std::filesystem::path(session.models().front().sourcePath).is_absolute());
  EXPECT_EQ(session.runs().size(), 2u);
  std::filesystem::remove(path);
}

TEST(RunRecording, AFailedRunIsMarkedWithWhy) {
  const std::string path = tempSession("failed.tsession");
  RunRecording recording(path, recordedModelOf("conv_relu.onnx"), convRelu());
  recording.begin(RunRequest{});
  recording.finishFailed("the disk is full");
  Session session = Session::open(path);
  std::optional<RunRecord> run = session.run(recording.runId());
  ASSERT_TRUE(run && run->summary);
  EXPECT_EQ(run->summary->stopReason, "failed: the disk is full");
  std::filesystem::remove(path);
}

// An entry point that begins a run and is left by an exception before finishing it (the explorer's
// worker, a command) still leaves a finished, failed run; and a finished run stays as finished.
TEST(RunRecording, ARunBegunAndNeverFinishedIsMarkedFailedWhenTheRecordingGoes) {
  const std::string path = tempSession("abandoned.tsession");
  int64_t abandoned = 0, finished = 0;
  {
    RunRecording recording(path, recordedModelOf("conv_relu.onnx"), convRelu());
    recording.begin(RunRequest{});
    abandoned = recording.runId();
  }
  {
    RunRecording recording(path, recordedModelOf("conv_relu.onnx"), convRelu());
    runRecorded(recording, RunRequest{}, convRelu());
    finished = recording.runId();
    recording.finishFailed("too late"); // a finished run is not failed afterwards
  }
  Session session = Session::open(path);
  std::optional<RunRecord> run = session.run(abandoned);
  ASSERT_TRUE(run && run->finishedAt && run->summary);
  EXPECT_EQ(run->summary->stopReason.rfind("failed: the run ended before it finished", 0), 0u) << run->summary->stopReason;
  std::optional<RunRecord> done = session.run(finished);
  ASSERT_TRUE(done && done->summary);
  EXPECT_EQ(done->summary->stopReason.rfind("failed", 0), std::string::npos) << done->summary->stopReason;
  std::filesystem::remove(path);
}

TEST(RunRecording, AFileThatIsNotASessionIsRefusedByNameAndLeftAsItWas) {
  const std::string path = tempSession("not-a-session.tsession");
  const std::string text = "these bytes are not a SQLite database, let alone a session";
  std::ofstream(path, std::ios::binary) << text;
  try {
    RunRecording recording(path, recordedModelOf("conv_relu.onnx"), convRelu());
    FAIL() << "a file that is not a session was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not-a-session.tsession"), std::string::npos) << e.what();
  }
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
  std::filesystem::remove(path);
}
