// Regression for fuzz_rules: every input in tests/fuzz/corpus/rules (seeds cut from the default
// pack and TENSAT's files, and what the fuzzer kept) parses in each format to a rule set that
// searches and applies, or to a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckRuleText.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(RuleFuzzCorpus, EveryInputParsesOrFailsCleanly) {
  fuzz::expectCorpusReplaysCleanly("rules", [](const std::filesystem::path& file) {
    return fuzz::checkRuleText(fuzz::fileBytes(file.string()), file.filename().string());
  });
}
