// What a candidate kernel is written in, and so which builder compiles it.
#pragma once

namespace tessera::tune {

enum class KernelLanguage {
  C,      // C with OpenMP pragmas, for the system compiler (CodegenC)
  LlvmIr, // textual LLVM IR, compiled in-process by LLVM (CodegenLlvm)
  Cuda,   // CUDA C++ for NVRTC (CodegenCuda)
};

// "c", "llvm", "cuda": the names `tune --codegen` and the reports use.
inline const char* languageName(KernelLanguage language) {
  switch (language) {
  case KernelLanguage::C: return "c";
  case KernelLanguage::LlvmIr: return "llvm";
  case KernelLanguage::Cuda: return "cuda";
  }
  return "?";
}

} // namespace tessera::tune
