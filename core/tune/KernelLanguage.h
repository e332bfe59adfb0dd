// What a candidate kernel is written in, and so which builder compiles it.
#pragma once

namespace tessera::tune {

enum class KernelLanguage {
  C,      // C with OpenMP pragmas, for the system compiler (CodegenC)
  LlvmIr, // textual LLVM IR, compiled in-process by LLVM (CodegenLlvm)
  Cuda,   // CUDA C++ for NVRTC (CodegenCuda)
  Asm,    // this machine's assembly text, for the system compiler driver: SIP's reordered kernels (core/sip)
};

// "c", "llvm", "cuda", "asm": the names `tune --codegen` and the reports use.
inline const char* languageName(KernelLanguage language) {
  switch (language) {
  case KernelLanguage::C: return "c";
  case KernelLanguage::LlvmIr: return "llvm";
  case KernelLanguage::Cuda: return "cuda";
  case KernelLanguage::Asm: return "asm";
  }
  return "?";
}

} // namespace tessera::tune
