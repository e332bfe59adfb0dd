// The codegen module, libtessera_codegen.so: LLVM IR generation and the in-process LLVM builder
// (tessera_tune_llvm), which core/tune reaches through support/Module.h (LlvmModule.cpp).
#include "tune/CodegenLlvm.h"
#include "tune/LlvmBuilder.h"

extern "C" void tessera_codegen_emit_llvm_ir(const tessera::tune::LoopNest& nest, std::string& ir) { ir = tessera::tune::emitLlvmIr(nest); }

extern "C" tessera::tune::Builder* tessera_codegen_make_cpu_builder(const tessera::tune::BuildOptions& options) {
  return new tessera::tune::LlvmBuilder(options);
}
