// libFuzzer target for the TensorProto reader (onnx/TensorProtoIO: readTensorProtoFile); see
// CheckTensorProtoFile.h for what an input goes through. The reader only takes paths, so each
// input is written to a scratch file (in memory where /dev/shm exists).
#include "CheckTensorProtoFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = tessera::fuzz::fuzzScratchPath("tensor.pb");
  static const std::string roundTrip = tessera::fuzz::fuzzScratchPath("tensor-again.pb");
  tessera::fuzz::writeBytes(path, std::string(tessera::fuzz::inputBytes(data, size)));
  return tessera::fuzz::endOfInput(tessera::fuzz::checkTensorProtoFile(path, roundTrip));
}
