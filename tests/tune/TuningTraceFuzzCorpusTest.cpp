// Regression for fuzz_tuning_trace: every input in tests/fuzz/corpus/tuning_trace (traces the tuner
// recorded, broken ones and what the fuzzer kept) reads and replays on its workload, or is a
// tessera::Error, never a crash.
#include "../fuzz/CheckTuningTrace.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(TuningTraceFuzzCorpus, EveryInputReplaysOrFailsCleanly) {
  fuzz::expectCorpusReplaysCleanly("tuning_trace", [](const std::filesystem::path& file) { return fuzz::checkTuningTrace(fuzz::fileBytes(file.string())); });
}
