// A build without LLVM: candidates are C only, and asking for LLVM IR says what is missing.
#include "tune/CodegenLlvm.h"

#include "tune/Builder.h"

#include "support/Error.h"

namespace tessera::tune {

bool llvmAvailable() { return false; }

std::string generateLlvmIr(const LoopNest&) {
  throw Error("this build of Tessera has no LLVM code generation: install llvm-dev (Debian) and configure again, or use --codegen c");
}

std::unique_ptr<Builder> makeCpuBuilder(BuildOptions options) { return std::make_unique<CompilerBuilder>(std::move(options)); }

} // namespace tessera::tune
