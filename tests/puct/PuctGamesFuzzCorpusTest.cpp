// Regression for fuzz_puct_games: every input in tests/fuzz/corpus/puct_games (a shard's file from a
// real launched training, hand-made small ones, broken ones) reads as a game file that writes back
// the same, or is a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckPuctGames.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(PuctGamesFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string scratch = fuzz::fuzzScratchPath("corpus-puct-games.cbor");
  fuzz::expectCorpusReplaysCleanly("puct_games", [&](const std::filesystem::path& file) {
    return fuzz::checkPuctGames(fuzz::fileBytes(file.string()), scratch);
  });
}
