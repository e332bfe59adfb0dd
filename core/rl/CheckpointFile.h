// An agent checkpoint on disk: one file holding a JSON header (the agent, its config, the rule
// pack and cost model it was trained with, what it was trained on) and the network's weights as
// the tensor library serialised them. Reading checks the framing and the header before anything
// touches the weights, so a truncated or foreign file is an error naming it, never a crash.
#pragma once

#include "rewrite/Rule.h"
#include "rl/AgentConfig.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct CheckpointHeader {
  std::string agent = "xrlflow";
  int agentFormat = 1;             // the layout of that agent's networks: bumped when their shapes change
  AgentConfig config;
  std::string rulePack;            // rulePackFingerprint of the pack it was trained with
  int rulePackSize = 0;
  std::string cost;                // the cost model its rewards came from
  std::vector<std::string> models; // the models it was trained on, as training labelled them
  // Their structural hashes (rl/TrainedModels.h), in the order of `models`, so a model is known
  // whatever another command calls it; empty in checkpoints written before they were kept.
  std::vector<std::string> modelHashes;
  int episodes = 0;
  uint64_t seed = 0;
};

struct CheckpointContents {
  CheckpointHeader header;
  std::string weights;
};

// Throws tessera::Error naming the file when it cannot be written.
void writeCheckpointFile(const std::string& path, const CheckpointHeader& header, std::string_view weights);
// Throws tessera::Error naming the file when it is missing, not a checkpoint, truncated or
// carries a header that does not parse or holds impossible settings.
CheckpointContents readCheckpointFile(const std::string& path);

// Throws tessera::Error naming the file when the checkpoint is not an `agent` agent or was
// trained on another rule pack than `rules`.
void checkCheckpointFits(const CheckpointHeader& header, std::string_view agent, std::span<const Rule* const> rules,
                         const std::string& path);

} // namespace tessera
