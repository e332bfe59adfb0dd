// libFuzzer target for the rule parser (rewrite/RuleSet: parseRules); see CheckRuleText.h for what
// an input goes through. A RuleSet or a tessera::Error naming the file are the only acceptable
// outcomes; a crash, a leak, undefined behaviour or any other exception is a bug.
#include "CheckRuleText.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkRuleText(tessera::fuzz::inputBytes(data, size), "fuzz.rules");
  return tessera::fuzz::endOfInput(outcome);
}
