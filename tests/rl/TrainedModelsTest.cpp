#include "rl/TrainedModels.h"

#include "RlTestFiles.h"
#include "RlTestGraphs.h"

#include "rl/RulePackFingerprint.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tessera;
using namespace tessera::test;

namespace {

CheckpointHeader headerFor(const RulePack& pack) {
  CheckpointHeader h;
  h.config = agentConfigFor(pack.list.size());
  h.rulePack = rulePackFingerprint(pack.list);
  h.rulePackSize = static_cast<int>(pack.list.size());
  h.cost = "analytic:h200";
  return h;
}

} // namespace

// Training labels models by how they differ on its command line ("tensat/bert" beside
// "samples/bert"); another command labels the same file "bert". The hash recognises it.
TEST(TrainedModels, AModelIsRecognisedWhateverItIsCalledAndAnotherIsNot) {
  RulePack pack;
  CheckpointHeader h = headerFor(pack);
  const std::vector<NamedGraph> trained{{"tensat/chain", expChain(3)}, {"samples/chain", expChain(4)}};
  recordTrainedModels(h, trained);
  EXPECT_EQ(h.models, (std::vector<std::string>{"tensat/chain", "samples/chain"}));
  ASSERT_EQ(h.modelHashes.size(), 2u);
  EXPECT_NE(h.modelHashes[0], h.modelHashes[1]);

  const std::string path = tempPath("rl-trained-models", "hashes.ckpt");
  writeCheckpointFile(path, h, "weights");
  const CheckpointHeader read = readCheckpointFile(path).header;
  EXPECT_EQ(read.modelHashes, h.modelHashes);
  EXPECT_EQ(wasTrainedOn(read, expChain(4)), std::optional<bool>(true));
  EXPECT_EQ(wasTrainedOn(read, expChain(5)), std::optional<bool>(false));
  EXPECT_EQ(trainingSetVerdict(wasTrainedOn(read, expChain(3))), "this model is in its training set (in-sample)");
  EXPECT_EQ(trainingSetVerdict(wasTrainedOn(read, expChain(5))), "this model is not in its training set (held out)");
}

TEST(TrainedModels, ACheckpointWithoutHashesCannotTell) {
  RulePack pack;
  CheckpointHeader h = headerFor(pack);
  h.models = {"chain"};
  const std::string path = tempPath("rl-trained-models", "names-only.ckpt");
  writeCheckpointFile(path, h, "weights");
  const CheckpointHeader read = readCheckpointFile(path).header;
  EXPECT_TRUE(read.modelHashes.empty());
  EXPECT_EQ(wasTrainedOn(read, expChain(3)), std::nullopt);
  EXPECT_NE(trainingSetVerdict(wasTrainedOn(read, expChain(3))).find("does not say"), std::string::npos);
}

TEST(TrainedModels, HashesThatDoNotMatchTheModelsAreRefusedByName) {
  RulePack pack;
  CheckpointHeader h = headerFor(pack);
  recordTrainedModels(h, std::vector<NamedGraph>{{"a", expChain(1)}, {"b", expChain(2)}});
  h.modelHashes.pop_back();
  const std::string path = tempPath("rl-trained-models", "inconsistent.ckpt");
  writeCheckpointFile(path, h, "weights");
  const std::string error = errorOf([&] { readCheckpointFile(path); });
  EXPECT_NE(error.find(path + ": the checkpoint's header is inconsistent (1 model hashes for 2 models)"), std::string::npos) << error;
}
