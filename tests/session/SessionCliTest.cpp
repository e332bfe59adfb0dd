// `tessera-cli session`: the listing (text and --json), --run, --export-candidate, and errors that
// name the file.
#include "CliRunner.h"
#include "SessionTestSupport.h"
#include "onnx/OnnxImport.h"
#include "session/Session.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace tessera {
namespace {

struct SessionFile {
  std::string path;
  int64_t firstRun = 0;
  int64_t secondRun = 0;
  int64_t bestCandidate = 0;
};

SessionFile twoRuns() {
  SessionFile file{test::tempSessionPath("cli")};
  Session session = Session::create(file.path);
  Graph model = test::sampleModel("vgg19");
  int64_t modelId = session.addModel("vgg19", "samples/vgg19.onnx", model);
  file.firstRun = session.beginRun(RunInfo{modelId, "eqsat", {{"iterations", "15"}}, 7, "analytic:h200"});
  session.appendEvents(file.firstRun, test::manyEvents(40));
  session.addCandidate(file.firstRun, 0, test::sampleCandidate(model, 8.0, 1));
  file.bestCandidate = session.addCandidate(file.firstRun, 1, test::sampleCandidate(model, 6.0, 3));
  session.finishRun(file.firstRun, RunSummary{"saturated", 10.0, 6.0, 40.0, 321, 123, 3, true});
  file.secondRun = session.beginRun(RunInfo{modelId, "mcts", {}, 9, "measured:cpu"});
  session.addCandidate(file.secondRun, 0, test::sampleCandidate(model, 9.0, 0));
  return file;
}

using test::readJson;

TEST(SessionCli, ListsModelsRunsAndCandidates) {
  SessionFile file = twoRuns();
  std::string json = file.path + ".json";
  test::CliResult result = test::runCli("session '" + file.path + "' --json '" + json + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("vgg19"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("saturated"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("(unfinished)"), std::string::npos) << result.output;

  nlohmann::json report = readJson(json);
  ASSERT_EQ(report["models"].size(), 1u);
  EXPECT_EQ(report["models"][0]["name"], "vgg19");
  ASSERT_EQ(report["runs"].size(), 2u);
  const nlohmann::json& first = report["runs"][0];
  EXPECT_EQ(first["strategy"], "eqsat");
  EXPECT_EQ(first["seed"], 7);
  EXPECT_EQ(first["cost_spec"], "analytic:h200");
  EXPECT_EQ(first["stop_reason"], "saturated");
  EXPECT_DOUBLE_EQ(first["original_cost_ms"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(first["optimized_cost_ms"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(first["speedup_pct"].get<double>(), 40.0);
  EXPECT_EQ(first["steps"], 3);
  EXPECT_EQ(first["enodes"], 321);
  EXPECT_EQ(first["events"], 40);
  EXPECT_EQ(first["parameters"]["iterations"], "15");
  EXPECT_EQ(report["runs"][1]["finished"], false);

  ASSERT_EQ(report["candidates"].size(), 3u);
  const nlohmann::json& best = report["candidates"][1];
  EXPECT_EQ(best["id"], file.bestCandidate);
  EXPECT_EQ(best["run"], file.firstRun);
  EXPECT_EQ(best["index"], 1);
  EXPECT_EQ(best["method"], "dag");
  EXPECT_DOUBLE_EQ(best["speedup_pct"].get<double>(), 40.0) << "against the run's original cost";
  EXPECT_FALSE(report["candidates"][2].contains("speedup_pct")) << "an unfinished run has no original cost";
}

TEST(SessionCli, OneRunOnly) {
  SessionFile file = twoRuns();
  std::string json = file.path + ".json";
  test::CliResult result = test::runCli("session '" + file.path + "' --run " + std::to_string(file.secondRun) + " --json '" + json + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  nlohmann::json report = readJson(json);
  ASSERT_EQ(report["runs"].size(), 1u);
  EXPECT_EQ(report["runs"][0]["strategy"], "mcts");
  ASSERT_EQ(report["candidates"].size(), 1u);
  EXPECT_EQ(report["candidates"][0]["run"], file.secondRun);

  result = test::runCli("session '" + file.path + "' --run 99");
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.output.find(file.path + ": has no run 99"), std::string::npos) << result.output;
}

TEST(SessionCli, ExportsACandidateAsOnnx) {
  SessionFile file = twoRuns();
  std::string out = file.path + ".best.onnx";
  test::CliResult result = test::runCli("session '" + file.path + "' --export-candidate " + std::to_string(file.bestCandidate) +
                                        " --out '" + out + "'");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  Graph exported = onnx_io::importOnnxFile(out);
  EXPECT_EQ(exported.opCount(), test::sampleModel("vgg19").opCount());

  result = test::runCli("session '" + file.path + "' --export-candidate 999 --out '" + out + "'");
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.output.find("no candidate 999"), std::string::npos) << result.output;
  result = test::runCli("session '" + file.path + "' --export-candidate " + std::to_string(file.bestCandidate));
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.output.find("needs --out"), std::string::npos) << result.output;
}

TEST(SessionCli, BadFilesFailWithOneLineNamingTheFile) {
  std::string missing = test::tempSessionPath("cli-missing");
  test::CliResult result = test::runCli("session '" + missing + "'");
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.output.find(missing + ": no such session file"), std::string::npos) << result.output;
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;

  std::string model = std::string(TESSERA_SOURCE_DIR) + "/samples/vgg19.onnx";
  result = test::runCli("session '" + model + "'");
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.output.find(model + ": is not a Tessera session"), std::string::npos) << result.output;
}

} // namespace
} // namespace tessera
