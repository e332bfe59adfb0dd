// Regression for fuzz_egraph_json: every input in tests/fuzz/corpus/egraph_json (extraction-gym's
// VGG, Tessera's own e-graphs, small hand-made ones and what the fuzzer kept) reads to a problem
// that the tree, DAG and shared-cost extractors solve validly or refuse, or to a tessera::Error
// naming the file, never a crash.
#include "../fuzz/CheckEGraphJson.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using namespace tessera;

TEST(EGraphJsonFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus/egraph_json";
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  size_t files = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    fuzz::FuzzOutcome outcome = fuzz::checkEGraphJson(fuzz::fileBytes(entry.path().string()), entry.path().filename().string());
    EXPECT_EQ(outcome.defect, "") << entry.path();
    if (outcome.accepted) ++accepted;
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(accepted, 0u);
  EXPECT_LT(accepted, files);
  std::printf("[ corpus   ] %zu files: %zu e-graphs, %zu errors\n", files, accepted, files - accepted);
}
