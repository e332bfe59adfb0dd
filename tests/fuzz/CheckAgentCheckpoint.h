// What an agent-checkpoint fuzz input goes through: the bytes read as a checkpoint file
// (rl/CheckpointFile: its header and the length of its weights, what every agent and `rl
// world-model eval` read first), and an accepted one written back and read again. The contract
// (CheckpointFile.h): an accepted header has settings checkAgentConfig accepts and writes back
// to the same header and weights; anything else is a tessera::Error naming the file, never a crash
// or the JSON library's own exception. The networks' weights themselves are libtorch's to read.
// Shared by fuzz_agent_checkpoint and tests/rl's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "rl/CheckpointFile.h"
#include "support/Error.h"

#include <filesystem>
#include <string>

namespace tessera::fuzz {

inline FuzzOutcome checkAgentCheckpoint(const std::string& bytes, const std::string& scratch) {
  writeBytes(scratch, bytes);
  FuzzOutcome outcome;
  try {
    const CheckpointContents contents = readCheckpointFile(scratch);
    outcome.accepted = true;
    writeCheckpointFile(scratch, contents.header, contents.weights);
    const CheckpointContents again = readCheckpointFile(scratch);
    if (again.weights != contents.weights || again.header.models != contents.header.models ||
        again.header.agentFormat != contents.header.agentFormat || again.header.seed != contents.header.seed ||
        again.header.rulePack != contents.header.rulePack)
      outcome.defect = "the checkpoint written back reads as another checkpoint";
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(scratch + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
  }
  std::filesystem::remove(scratch);
  return outcome;
}

} // namespace tessera::fuzz
