// libFuzzer target for the e-graph JSON reader (extract/EGraphJson: parseEGraphJson); see
// CheckEGraphJson.h for what an input goes through. A problem or a tessera::Error naming the file
// are the only acceptable outcomes, and an extraction must be valid; anything else is a bug.
#include "CheckEGraphJson.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkEGraphJson(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
