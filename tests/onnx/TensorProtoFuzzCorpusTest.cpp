// Regression for fuzz_tensor_proto: every input in tests/fuzz/corpus/tensor_proto (ONNX's node
// test tensors, Tessera's model outputs and what the fuzzer kept) reads to a tensor that writes
// back and reads again, or to a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckTensorProtoFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using namespace tessera;

TEST(TensorProtoFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus/tensor_proto";
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  const std::string scratch = (std::filesystem::temp_directory_path() / "tessera-tensor-corpus-again.pb").string();
  size_t files = 0, tensors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    fuzz::FuzzOutcome outcome = fuzz::checkTensorProtoFile(entry.path().string(), scratch);
    EXPECT_EQ(outcome.defect, "") << entry.path();
    if (outcome.accepted) ++tensors;
  }
  std::filesystem::remove(scratch);
  EXPECT_GT(files, 10u);
  EXPECT_GT(tensors, 0u);
  EXPECT_LT(tensors, files);
  std::printf("[ corpus   ] %zu files: %zu tensors, %zu errors\n", files, tensors, files - tensors);
}
