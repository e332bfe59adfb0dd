// libFuzzer target for agent checkpoints (rl/CheckpointFile: readCheckpointFile); see
// CheckAgentCheckpoint.h for what an input goes through and the contract it checks.
#include "CheckAgentCheckpoint.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("agent.ckpt");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkAgentCheckpoint(std::string(tessera::fuzz::inputBytes(data, size)), scratch);
  return tessera::fuzz::endOfInput(outcome);
}
