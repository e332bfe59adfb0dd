#include "rl/CheckpointFile.h"

#include "RlTestFiles.h"
#include "RlTestGraphs.h"

#include "rl/RulePackFingerprint.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessera;
using namespace tessera::test;

namespace {

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

class CheckpointFileTest : public ::testing::Test {
protected:
  CheckpointHeader header() const {
    CheckpointHeader h;
    h.config = agentConfigFor(pack.list.size());
    h.config.horizon = 7;
    h.rulePack = rulePackFingerprint(pack.list);
    h.rulePackSize = static_cast<int>(pack.list.size());
    h.cost = "analytic:h200";
    h.models = {"bert", "nasrnn"};
    h.episodes = 30;
    h.seed = 5;
    return h;
  }
  const std::string weights = std::string("\x00\x01weights\xff\n", 11) + std::string(1000, 'w');
  RulePack pack;
};

} // namespace

TEST_F(CheckpointFileTest, WhatIsWrittenIsReadBack) {
  const std::string path = tempPath("rl-checkpoint", "roundtrip.ckpt");
  writeCheckpointFile(path, header(), weights);
  CheckpointContents read = readCheckpointFile(path);
  EXPECT_EQ(read.weights, weights);
  EXPECT_EQ(read.header.agent, "xrlflow");
  EXPECT_EQ(read.header.config.horizon, 7);
  EXPECT_EQ(read.header.config.rules, static_cast<int>(pack.list.size()));
  EXPECT_EQ(read.header.config.learningRate, 5e-4);
  EXPECT_EQ(read.header.models, (std::vector<std::string>{"bert", "nasrnn"}));
  EXPECT_EQ(read.header.episodes, 30);
  EXPECT_EQ(read.header.seed, 5u);
  EXPECT_NO_THROW(checkCheckpointFits(read.header, "xrlflow", pack.list, path));
}

TEST_F(CheckpointFileTest, ATruncatedFileIsRefusedByName) {
  const std::string path = tempPath("rl-checkpoint", "truncated.ckpt");
  writeCheckpointFile(path, header(), weights);
  const std::string bytes = readBytes(path);
  for (size_t keep : {bytes.size() - 1, bytes.size() - weights.size(), bytes.size() / 2, size_t{40}, size_t{10}, size_t{0}}) {
    writeBytes(path, bytes.substr(0, keep));
    std::string error = errorOf([&] { readCheckpointFile(path); });
    EXPECT_NE(error.find(path), std::string::npos) << keep << ": " << error;
    EXPECT_TRUE(error.find("truncated") != std::string::npos || error.find("not an agent checkpoint") != std::string::npos)
        << keep << ": " << error;
  }
}

TEST_F(CheckpointFileTest, ForeignAndMalformedFilesAreRefusedByName) {
  const std::string path = tempPath("rl-checkpoint", "foreign.ckpt");
  writeBytes(path, "PK\x03\x04 a zip file, perhaps a torch.save archive");
  EXPECT_NE(errorOf([&] { readCheckpointFile(path); }).find("not an agent checkpoint"), std::string::npos);

  writeBytes(path, "tessera-agent-checkpoint 1\nheader 5\n{oops\nweights 0\n");
  std::string error = errorOf([&] { readCheckpointFile(path); });
  EXPECT_NE(error.find("header is malformed"), std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;

  writeBytes(path, "tessera-agent-checkpoint 1\nheader 2\n{}\nweights 0\n");
  EXPECT_NE(errorOf([&] { readCheckpointFile(path); }).find("header is malformed"), std::string::npos);

  writeBytes(path, "tessera-agent-checkpoint 1\nheader -3\n");
  EXPECT_NE(errorOf([&] { readCheckpointFile(path); }).find("bad header length"), std::string::npos);

  writeCheckpointFile(path, header(), weights);
  writeBytes(path, readBytes(path) + "extra");
  EXPECT_NE(errorOf([&] { readCheckpointFile(path); }).find("after the weights"), std::string::npos);

  EXPECT_NE(errorOf([&] { readCheckpointFile(tempPath("rl-checkpoint", "missing.ckpt")); }).find("missing.ckpt"), std::string::npos);
}

// A count of the header that is a float, or too large for its type, is refused by name, not cast
// (casting a float beyond the range is undefined behaviour).
TEST_F(CheckpointFileTest, ACountThatIsNotAnIntegerOfItsTypeIsRefusedByName) {
  const std::string path = tempPath("rl-checkpoint", "counts.ckpt");
  writeCheckpointFile(path, header(), weights);
  const std::string bytes = readBytes(path);
  const size_t headerStart = bytes.find('{'), weightsLine = bytes.find("\nweights ");
  const std::string headerText = bytes.substr(headerStart, weightsLine - headerStart);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"episodes\": 30", "\"episodes\": 1e30"},
                                 {"\"horizon\": 7", "\"horizon\": 7.5"},
                                 {"\"seed\": 5", "\"seed\": -5"}}) {
    std::string changed = headerText;
    ASSERT_NE(changed.find(from), std::string::npos) << from << " in " << headerText;
    changed.replace(changed.find(from), from.size(), to);
    writeBytes(path, "tessera-agent-checkpoint 1\nheader " + std::to_string(changed.size()) + "\n" + changed + bytes.substr(weightsLine));
    const std::string error = errorOf([&] { readCheckpointFile(path); });
    EXPECT_NE(error.find(path + ": the checkpoint's header is malformed"), std::string::npos) << to << ": " << error;
  }
}

TEST_F(CheckpointFileTest, ImpossibleSettingsAreRefused) {
  const std::string path = tempPath("rl-checkpoint", "settings.ckpt");
  CheckpointHeader h = header();
  h.config.hidden = -4;
  writeCheckpointFile(path, h, weights);
  std::string error = errorOf([&] { readCheckpointFile(path); });
  EXPECT_NE(error.find("hidden"), std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;
}

TEST_F(CheckpointFileTest, AnotherRulePackOrAgentIsRefused) {
  const std::string path = tempPath("rl-checkpoint", "pack.ckpt");
  CheckpointHeader h = header();
  std::vector<const Rule*> fewer(pack.list.begin(), pack.list.end() - 1);
  std::string error = errorOf([&] { checkCheckpointFits(h, "xrlflow", fewer, path); });
  EXPECT_NE(error.find("another rule pack"), std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;

  // Same size, another order: the embeddings would be read for the wrong rules.
  std::vector<const Rule*> swapped = pack.list;
  std::swap(swapped[0], swapped[1]);
  EXPECT_NE(errorOf([&] { checkCheckpointFits(h, "xrlflow", swapped, path); }).find("another rule pack"), std::string::npos);

  EXPECT_NE(errorOf([&] { checkCheckpointFits(h, "rlflow", pack.list, path); }).find("not an rlflow"), std::string::npos);

  h.config.opKinds += 1;
  EXPECT_NE(errorOf([&] { checkCheckpointFits(h, "xrlflow", pack.list, path); }).find("op table changed"), std::string::npos);
}

TEST(RulePackFingerprint, DependsOnEveryRuleAndItsOrder) {
  RulePack pack;
  const std::string all = rulePackFingerprint(pack.list);
  EXPECT_EQ(all.size(), 16u);
  EXPECT_EQ(all, rulePackFingerprint(RulePack().list)); // another load of the same pack
  std::vector<const Rule*> fewer(pack.list.begin(), pack.list.end() - 1);
  EXPECT_NE(all, rulePackFingerprint(fewer));
  std::vector<const Rule*> swapped = pack.list;
  std::swap(swapped[3], swapped[4]);
  EXPECT_NE(all, rulePackFingerprint(swapped));
}
