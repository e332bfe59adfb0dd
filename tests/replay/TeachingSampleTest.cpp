// The teaching sample must teach what it says: greedy rewriting misses the best graph that
// equality saturation finds, on the bundled file; the bundled session replays a run of each.
#include "cost/CostModel.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "ir/GraphHash.h"
#include "replay/ReplayModel.h"
#include "search/Strategy.h"
#include "session/Session.h"
#include "session/SessionSchema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace tessera;

namespace {
// The schema version in the SQLite header (user_version, big-endian at byte 60), read without
// opening a connection, which would leave a write-ahead log beside the file.
int userVersion(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char bytes[4] = {};
  in.seekg(60);
  in.read(reinterpret_cast<char*>(bytes), 4);
  return (bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3];
}

SearchResult optimize(const Graph& graph, const char* strategy) {
  static const RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  auto cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  SearchOptions options;
  options.timeLimitSeconds = 20;
  SearchInput input{graph, list, *cost, control, events, options};
  return makeStrategy(strategy)->run(input);
}
} // namespace

TEST(TeachingSample, GreedyMissesWhatSaturationFinds) {
  const Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/teaching/phase_ordering.onnx");
  const SearchResult greedy = optimize(model, "greedy");
  const SearchResult eqsat = optimize(model, "eqsat");
  EXPECT_GT(eqsat.speedupPct, 1.0);
  EXPECT_LT(eqsat.bestCostMs, greedy.bestCostMs * 0.99) << "greedy " << greedy.bestCostMs << " ms, eqsat " << eqsat.bestCostMs << " ms";
}

// The bundled session holds one run of each strategy on the bundled model, and each run's event log
// replays to the cost the run recorded: what the guide asks a student to look at is there.
TEST(TeachingSample, TheBundledSessionHoldsAReplayableRunOfEachStrategy) {
  const std::string dir = std::string(TESSERA_SOURCE_DIR) + "/samples/teaching";
  // Opening a session of an older schema migrates it in place: the bundled file is kept current,
  // and the test reads a copy so that it never writes into the source tree.
  EXPECT_EQ(userVersion(dir + "/phase_ordering.tsession"), session_schema::kCurrentVersion)
      << "open a copy with this build's tessera-cli session and bundle the migrated file";
  const std::filesystem::path copy = std::filesystem::temp_directory_path() /
                                        ("tessera-teaching-sample-" + std::to_string(::getpid()) + ".tsession");
  std::filesystem::copy_file(dir + "/phase_ordering.tsession", copy, std::filesystem::copy_options::overwrite_existing);
  Session session = Session::open(copy.string());
  const std::vector<ModelRecord> models = session.models();
  ASSERT_EQ(models.size(), 1u);
  const Graph bundled = onnx_io::importOnnxFile(dir + "/phase_ordering.onnx");
  EXPECT_TRUE(structurallyEqual(session.loadModel(models[0].id), bundled)) << "regenerate with tessera-teaching-sample samples/teaching";

  std::map<std::string, RunRecord> byStrategy;
  for (const RunRecord& run : session.runs()) byStrategy[run.info.strategy] = run;
  ASSERT_EQ(byStrategy.size(), 3u);
  for (const char* strategy : {"greedy", "eqsat", "mcts"}) {
    ASSERT_TRUE(byStrategy.count(strategy)) << strategy;
    const RunRecord& run = byStrategy[strategy];
    ASSERT_TRUE(run.summary.has_value()) << strategy;
    EXPECT_EQ(run.summary->verified, std::optional<bool>(true)) << strategy;
    EXPECT_FALSE(session.candidates(run.id).empty()) << strategy;
    ReplayModel replay;
    replay.append(session.events(run.id));
    const ReplayState& end = replay.seekToEnd();
    ASSERT_FALSE(end.bestCost.empty()) << strategy;
    EXPECT_NEAR(end.bestCost.back().costMs, run.summary->bestCostMs, 1e-9) << strategy;
  }
  EXPECT_LT(byStrategy["eqsat"].summary->bestCostMs, byStrategy["greedy"].summary->bestCostMs * 0.99);
  EXPECT_LT(byStrategy["mcts"].summary->bestCostMs, byStrategy["greedy"].summary->bestCostMs * 0.99);
  EXPECT_FALSE(byStrategy["mcts"].summary->steps == 0);
}
