// libFuzzer target for agent checkpoints (rl/CheckpointFile: readCheckpointFile); see
// CheckAgentCheckpoint.h for what an input goes through and the contract it checks.
#include "CheckAgentCheckpoint.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("agent.ckpt");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkAgentCheckpoint(std::string(reinterpret_cast<const char*>(data), size), scratch);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
