// Regression for fuzz_session: every input in tests/fuzz/corpus/session (small sessions cut from
// the teaching sample, older schemas, damaged files and what the fuzzer kept), copied to a scratch
// file, opens and reads through the replay, or fails with a tessera::Error naming the file and
// leaves it unchanged; never a crash. The corpus files themselves are never opened.
#include "../fuzz/CheckSessionFile.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(SessionFuzzCorpus, EveryInputOpensOrFailsCleanly) {
  const std::string scratch = (std::filesystem::temp_directory_path() / "tessera-session-corpus.tsession").string();
  fuzz::expectCorpusReplaysCleanly("session", [&](const std::filesystem::path& file) {
    return fuzz::checkSessionBytes(fuzz::fileBytes(file.string()), scratch);
  });
}
