// libFuzzer target for the e-graph JSON reader (extract/EGraphJson: parseEGraphJson); see
// CheckEGraphJson.h for what an input goes through. A problem or a tessera::Error naming the file
// are the only acceptable outcomes, and an extraction must be valid; anything else is a bug.
#include "CheckEGraphJson.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkEGraphJson(std::string(tessera::fuzz::inputBytes(data, size)), "fuzz.json");
  return tessera::fuzz::endOfInput(outcome);
}
