// Regression for fuzz_rules: every input in tests/fuzz/corpus/rules (seeds cut from the default
// pack and TENSAT's files, and what the fuzzer kept) parses in each format to a rule set that
// searches and applies, or to a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckRuleText.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using namespace tessera;

TEST(RuleFuzzCorpus, EveryInputParsesOrFailsCleanly) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus/rules";
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  size_t files = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    fuzz::FuzzOutcome outcome = fuzz::checkRuleText(fuzz::fileBytes(entry.path().string()), entry.path().filename().string());
    EXPECT_EQ(outcome.defect, "") << entry.path();
    if (outcome.accepted) ++accepted;
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(accepted, 0u);
  EXPECT_LT(accepted, files);
  std::printf("[ corpus   ] %zu files: %zu parse in some format\n", files, accepted);
}
