// libFuzzer target for the rule parser (rewrite/RuleSet: parseRules); see CheckRuleText.h for what
// an input goes through. A RuleSet or a tessera::Error naming the file are the only acceptable
// outcomes; a crash, a leak, undefined behaviour or any other exception is a bug.
#include "CheckRuleText.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkRuleText(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.rules");
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
