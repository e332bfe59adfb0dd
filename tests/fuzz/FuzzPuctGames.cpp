// libFuzzer target for PUCT self-play game files (puct/PuctGameFile: readPuctGameFile); see
// CheckPuctGames.h for what an input goes through and the contract it checks.
#include "CheckPuctGames.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("puct-games.cbor");
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkPuctGames(std::string(tessera::fuzz::inputBytes(data, size)), scratch);
  return tessera::fuzz::endOfInput(outcome);
}
