// The LLVM builder: a candidate in LLVM IR is optimised by LLVM's O3 pipeline for this machine's CPU
// and compiled to an object in this process, several at a time (each on its own thread and LLVM
// context), then linked into a shared library by the system compiler driver, so the runner loads
// it in a child process as it loads a C candidate. C candidates go to the system compiler. Kept in
// the same cache as CompilerBuilder's libraries, keyed by the IR, LLVM's version, the CPU and the linking driver.
// Exists in builds with LLVM, in the codegen module and core/sip (linked with LLVM); makeCpuBuilder()
// picks it through the module (LlvmModule.cpp).
#pragma once

#include "tune/Builder.h"

namespace tessera::tune {

class LlvmBuilder final : public Builder {
public:
  explicit LlvmBuilder(BuildOptions options = {});
  // An LLVM compile runs in this process and is not bounded by options.timeoutSeconds (the link is).
  std::vector<BuildResult> build(const std::vector<BuildInput>& inputs) override;

private:
  BuildOptions options_;
  CompilerBuilder compiler_;
  std::string machineKey_; // LLVM's version, the host CPU and its features, the linking driver
};

// The IR optimised and compiled exactly as LlvmBuilder compiles it, as this machine's assembly
// text (AT&T syntax) instead of an object: what SIP (core/sip) reorders. Throws tessera::Error.
std::string compileLlvmIrToAssembly(const std::string& ir);
// This machine's CPU features as LLVM spells them ("+avx2,-sse4a,..."), sorted: the subtarget
// LlvmBuilder compiles for.
const std::string& llvmHostFeatures();

} // namespace tessera::tune
