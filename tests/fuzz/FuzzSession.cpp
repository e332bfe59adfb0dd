// libFuzzer target for the session loader (session/Session: open, then the readers); see
// CheckSessionFile.h for what an input goes through and the contract it checks.
#include "CheckSessionFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("session.tsession");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkSessionBytes(std::string(tessera::fuzz::inputBytes(data, size)), scratch);
  return tessera::fuzz::endOfInput(outcome);
}
