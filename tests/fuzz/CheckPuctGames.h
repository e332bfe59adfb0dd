// What a PUCT game-file fuzz input goes through: the bytes read as a launched self-play shard's
// file (puct/PuctGameFile: readPuctGameFile, what `rl train --agent puct --launcher` reads back
// into its replay buffer), and an accepted one written back and read again. The contract
// (PuctGameFile.h): an accepted file's games fit its key (numbers, per-rule rows, observations a
// network can read) and write back to the same bytes; anything else is a tessera::Error naming the
// file, never a crash or the JSON library's own exception. Shared by fuzz_puct_games and tests/puct's
// corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "puct/PuctGameFile.h"
#include "support/Error.h"

#include <filesystem>
#include <string>

namespace tessera::fuzz {

inline FuzzOutcome checkPuctGames(const std::string& bytes, const std::string& scratch) {
  writeBytes(scratch, bytes);
  FuzzOutcome outcome;
  try {
    const PuctGameFile file = readPuctGameFile(scratch);
    outcome.accepted = true;
    writePuctGameFile(scratch, file);
    const std::string written = fileBytes(scratch);
    const PuctGameFile again = readPuctGameFile(scratch);
    writePuctGameFile(scratch, again);
    if (!(again.key == file.key) || again.games.size() != file.games.size() || fileBytes(scratch) != written)
      outcome.defect = "the game file written back reads as another file";
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(scratch + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
  }
  std::filesystem::remove(scratch);
  return outcome;
}

} // namespace tessera::fuzz
