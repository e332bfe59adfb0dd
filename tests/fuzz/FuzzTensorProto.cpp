// libFuzzer target for the TensorProto reader (onnx/TensorProtoIO: readTensorProtoFile); see
// CheckTensorProtoFile.h for what an input goes through. The reader only takes paths, so each
// input is written to a scratch file (in memory where /dev/shm exists).
#include "CheckTensorProtoFile.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string scratchPath(const char* suffix) {
  std::filesystem::path dir = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
  return (dir / ("tessera-fuzz-tensor-" + std::to_string(getpid()) + suffix)).string();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = scratchPath(".pb");
  static const std::string roundTrip = scratchPath("-again.pb");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  tessera::fuzz::FuzzOutcome outcome = tessera::fuzz::checkTensorProtoFile(path, roundTrip);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
