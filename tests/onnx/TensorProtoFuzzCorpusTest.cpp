// Regression for fuzz_tensor_proto: every input in tests/fuzz/corpus/tensor_proto (ONNX's node
// test tensors, Tessera's model outputs and what the fuzzer kept) reads to a tensor that writes
// back and reads again, or to a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckTensorProtoFile.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;

TEST(TensorProtoFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string scratch = (std::filesystem::temp_directory_path() / "tessera-tensor-corpus-again.pb").string();
  fuzz::expectCorpusReplaysCleanly("tensor_proto", [&](const std::filesystem::path& file) {
    return fuzz::checkTensorProtoFile(file.string(), scratch);
  });
  std::filesystem::remove(scratch);
}
