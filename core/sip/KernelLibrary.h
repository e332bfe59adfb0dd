// A listing's assembly made into a shared object the tuner's runner loads: assembled by the x86
// adapter (LLVM's MC layer) into an object, linked by the system compiler driver, cached by the text's hash.
#pragma once

#include <string>

namespace tessera::sip {

struct KernelLibrary {
  std::string library;  // the .so; empty when a stage failed
  std::string error;
  bool assembleFailed = false; // the MC layer could not encode it (else, when failed, the link did)
  bool ok() const { return !library.empty(); }
};

// openmp: the kernel calls OpenMP's runtime (linked with -fopenmp, as the tuner links it). cacheDir
// empty: the tuner's (tune::defaultCacheDir()). Never throws for bad assembly.
KernelLibrary buildKernelLibrary(const std::string& assembly, bool openmp, const std::string& cacheDir = {},
                                 const std::string& compiler = "cc");

} // namespace tessera::sip
