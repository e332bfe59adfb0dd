// Regression for fuzz_workload: every input in tests/fuzz/corpus/workload (the strings the guide
// and the benchmarks use, broken ones and what the fuzzer kept) parses to a workload whose key reads
// back the same, or is a tessera::Error quoting the string, never a crash.
#include "../fuzz/CheckWorkload.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(WorkloadFuzzCorpus, EveryInputParsesOrFailsCleanly) {
  fuzz::expectCorpusReplaysCleanly("workload", [](const std::filesystem::path& file) { return fuzz::checkWorkload(fuzz::fileBytes(file.string())); });
}
