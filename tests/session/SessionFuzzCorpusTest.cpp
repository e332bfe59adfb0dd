// Regression for fuzz_session: every input in tests/fuzz/corpus/session (small sessions cut from
// the teaching sample, older schemas, damaged files and what the fuzzer kept), copied to a scratch
// file, opens and reads through the replay, or fails with a tessera::Error naming the file and
// leaves it unchanged; never a crash. The corpus files themselves are never opened.
#include "../fuzz/CheckSessionFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using namespace tessera;

TEST(SessionFuzzCorpus, EveryInputOpensOrFailsCleanly) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus/session";
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  const std::string scratch = (std::filesystem::temp_directory_path() / "tessera-session-corpus.tsession").string();
  size_t files = 0, sessions = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    fuzz::FuzzOutcome outcome = fuzz::checkSessionBytes(fuzz::fileBytes(entry.path().string()), scratch);
    EXPECT_EQ(outcome.defect, "") << entry.path();
    if (outcome.accepted) ++sessions;
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(sessions, 0u);
  EXPECT_LT(sessions, files);
  std::printf("[ corpus   ] %zu files: %zu sessions, %zu errors\n", files, sessions, files - sessions);
}
