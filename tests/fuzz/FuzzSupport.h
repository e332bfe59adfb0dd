// What one fuzz input came to, and reading or writing one whole file. The fuzz targets abort on a
// defect; the corpus replay tests in the normal test run (tests/rewrite, tests/extract,
// tests/session, tests/onnx, tests/launch, tests/tune, tests/rl, tests/plugins) expect
// none.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace tessera::fuzz {

struct FuzzOutcome {
  bool accepted = false; // parsed (and, where the check goes further, used) without an error
  std::string defect;    // empty: accepted or refused with a tessera::Error, as the contract says
};

// libFuzzer's input as bytes.
inline std::string_view inputBytes(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

// A fuzz target's answer to libFuzzer: 0 for an input the contract holds for; a defect is printed
// and aborts, so the fuzzer keeps the input as a crash.
inline int endOfInput(const FuzzOutcome& outcome) {
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}

inline std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A path of this process's own for a target that hands its input to a reader of files: in memory
// (/dev/shm) where there is one, since a fuzzer writes it thousands of times a second.
inline std::string fuzzScratchPath(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
  return (dir / ("tessera-fuzz-" + std::to_string(getpid()) + "-" + name)).string();
}

} // namespace tessera::fuzz
