// Regression for fuzz_cost_table: every input in tests/fuzz/corpus/cost_table (valid tables, broken
// ones and what the fuzzer kept) reads as a table that writes back the same, or is a tessera::Error
// naming the file, never a crash.
#include "../fuzz/CheckCostTable.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(CostTableFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string scratch = fuzz::fuzzScratchPath("corpus-costs.json");
  fuzz::expectCorpusReplaysCleanly("cost_table", [&](const std::filesystem::path& file) {
    return fuzz::checkCostTable(fuzz::fileBytes(file.string()), scratch);
  });
}
