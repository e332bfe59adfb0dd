// The game file of a launched PUCT self-play shard (puct/PuctGameFile.h): what is written reads
// back exactly (the replay buffer of a launched training is the one of a training in one process),
// and a file of other games, of another network, or damaged is an error naming it.
#include "puct/PuctGameFile.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace tessera {
namespace {

constexpr size_t kRules = 3;

// A root over a two-op graph, with figures that are not round in binary.
PuctSample sample(float share) {
  PuctSample s;
  GraphObservation& g = s.input.observation.graph;
  g.nodes = 2;
  g.ops = {0, 1};
  for (int i = 0; i < 2 * nodeFigureSize(); ++i) g.figures.push_back(0.1f * static_cast<float>(i) + 1e-7f);
  g.senders = {0, 1, 0};
  g.receivers = {0, 1, 1};
  g.globals.assign(static_cast<size_t>(globalFeatureSize()), 1.0f / 3.0f);
  s.input.ruleFeatures.assign(kRules * kPuctRuleFeatures, 0.7f);
  s.input.stateFeatures = {0.25f, 0.9f};
  s.input.canAct = {1, 0, 1};
  s.input.stateSpeedupPct = 1.0 / 7.0;
  s.policyTarget = {share, 0.0f, 1.0f - share};
  s.valueTarget = 2.0 / 3.0;
  return s;
}

PuctGameFile twoGames() {
  PuctGameFile file;
  file.key = {7, "00ff00ff00ff00ff", 4, 2, kRules};
  for (int g = 0; g < 2; ++g) {
    PlayedGame played;
    played.game = {4 + g, 2, "nasrnn", 12.345678901 + g, g == 0, 3, 0, 0.75};
    played.samples = {sample(0.3f), sample(1.0f / 3.0f)};
    played.game.samples = played.samples.size();
    file.games.push_back(played);
  }
  return file;
}

class PuctGameFileTest : public ::testing::Test {
protected:
  void SetUp() override { path = (std::filesystem::temp_directory_path() / ("tessera-puct-games-" + std::to_string(::getpid()) + ".cbor")).string(); }
  void TearDown() override { std::filesystem::remove(path); }
  std::string errorReading(const PuctGamesKey& key) {
    try {
      readPuctGames(path, key);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  std::string path;
};

TEST_F(PuctGameFileTest, GamesReadBackExactly) {
  const PuctGameFile written = twoGames();
  writePuctGameFile(path, written);
  const std::vector<PlayedGame> read = readPuctGames(path, written.key);
  ASSERT_EQ(read.size(), 2u);
  for (size_t g = 0; g < 2; ++g) {
    EXPECT_EQ(read[g].game.index, written.games[g].game.index);
    EXPECT_EQ(read[g].game.generation, 2);
    EXPECT_EQ(read[g].game.model, "nasrnn");
    EXPECT_EQ(read[g].game.speedupPct, written.games[g].game.speedupPct);
    EXPECT_EQ(read[g].game.verified, written.games[g].game.verified);
    EXPECT_EQ(read[g].game.samples, 2u);
    ASSERT_EQ(read[g].samples.size(), 2u);
    for (size_t s = 0; s < 2; ++s) {
      const PuctSample &a = read[g].samples[s], &b = written.games[g].samples[s];
      EXPECT_EQ(a.input.observation.graph.figures, b.input.observation.graph.figures);
      EXPECT_EQ(a.input.observation.graph.senders, b.input.observation.graph.senders);
      EXPECT_EQ(a.input.observation.graph.globals, b.input.observation.graph.globals);
      EXPECT_EQ(a.input.ruleFeatures, b.input.ruleFeatures);
      EXPECT_EQ(a.input.stateFeatures, b.input.stateFeatures);
      EXPECT_EQ(a.input.canAct, b.input.canAct);
      EXPECT_EQ(a.input.stateSpeedupPct, b.input.stateSpeedupPct);
      EXPECT_EQ(a.policyTarget, b.policyTarget);
      EXPECT_EQ(a.valueTarget, b.valueTarget);
    }
  }
}

TEST_F(PuctGameFileTest, AFileOfOtherGamesOrAnotherNetworkIsRefusedByName) {
  const PuctGameFile written = twoGames();
  writePuctGameFile(path, written);
  PuctGamesKey otherNetwork = written.key;
  otherNetwork.network = "1234567812345678";
  const std::string error = errorReading(otherNetwork);
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
  EXPECT_NE(error.find("played with network 00ff00ff00ff00ff"), std::string::npos) << error;
  EXPECT_NE(error.find("another generation or run"), std::string::npos) << error;
  PuctGamesKey otherGames = written.key;
  otherGames.first = 6;
  EXPECT_NE(errorReading(otherGames).find("games 5-6 of seed 7"), std::string::npos);
  PuctGamesKey otherPack = written.key;
  otherPack.rules = 4;
  EXPECT_NE(errorReading(otherPack).find("over 3 rules, not"), std::string::npos);
}

TEST_F(PuctGameFileTest, ADamagedFileIsRefusedByName) {
  const PuctGameFile written = twoGames();
  writePuctGameFile(path, written);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  std::string error = errorReading(written.key);
  EXPECT_EQ(error.rfind(path + ": not a file of puct self-play games", 0), 0u) << error;

  std::ofstream(path, std::ios::trunc) << "{\"format\": \"tessera-puct-games\"}";
  error = errorReading(written.key);
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;

  // A sample with a row too few for the action space is refused, not handed to the network.
  PuctGameFile shortRow = twoGames();
  shortRow.games[1].samples[0].policyTarget.pop_back();
  writePuctGameFile(path, shortRow);
  error = errorReading(shortRow.key);
  EXPECT_NE(error.find(path + ": a sample's visit shares are not one share a rule"), std::string::npos) << error;

  // An observation whose edges leave its graph is refused too.
  PuctGameFile badEdge = twoGames();
  badEdge.games[0].samples[1].input.observation.graph.receivers[2] = 2;
  writePuctGameFile(path, badEdge);
  error = errorReading(badEdge.key);
  EXPECT_NE(error.find(path + ": an observation's edges are not pairs of its rows"), std::string::npos) << error;
}

} // namespace
} // namespace tessera
