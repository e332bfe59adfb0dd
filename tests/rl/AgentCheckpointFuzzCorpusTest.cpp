// Regression for fuzz_agent_checkpoint: every input in tests/fuzz/corpus/agent_checkpoint (the
// shipped agents' headers, broken ones and what the fuzzer kept) reads as a checkpoint that writes
// back the same, or is a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckAgentCheckpoint.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(AgentCheckpointFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string scratch = fuzz::fuzzScratchPath("corpus-agent.ckpt");
  fuzz::expectCorpusReplaysCleanly("agent_checkpoint", [&](const std::filesystem::path& file) {
    return fuzz::checkAgentCheckpoint(fuzz::fileBytes(file.string()), scratch);
  });
}
