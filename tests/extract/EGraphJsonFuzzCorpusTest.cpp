// Regression for fuzz_egraph_json: every input in tests/fuzz/corpus/egraph_json (extraction-gym's
// VGG, Tessera's own e-graphs, small hand-made ones and what the fuzzer kept) reads to a problem
// that the tree, DAG and shared-cost extractors solve validly or refuse, or to a tessera::Error
// naming the file, never a crash.
#include "../fuzz/CheckEGraphJson.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(EGraphJsonFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  fuzz::expectCorpusReplaysCleanly("egraph_json", [](const std::filesystem::path& file) {
    return fuzz::checkEGraphJson(fuzz::fileBytes(file.string()), file.filename().string());
  });
}
