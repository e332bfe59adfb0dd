// Regression for the fuzzer: every input in tests/fuzz/corpus/onnx (seeds and the inputs that
// once crashed) imports to a graph or to a tessera::Error, never a crash.
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tessera;

TEST(FuzzCorpus, EveryInputImportsOrFailsCleanly) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus/onnx";
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  size_t files = 0, graphs = 0, errors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      Graph graph = onnx_io::importOnnxBytes(bytes, entry.path().filename().string());
      EXPECT_FALSE(graph.hasCycle()) << entry.path();
      ++graphs;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(entry.path().filename().string() + ": ", 0), 0u) << e.what();
      ++errors;
    }
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(graphs, 0u);
  EXPECT_GT(errors, 0u);
  std::printf("[ corpus   ] %zu files: %zu graphs, %zu errors\n", files, graphs, errors);
}
