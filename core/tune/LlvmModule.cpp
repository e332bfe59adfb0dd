// LLVM code generation through the codegen module (libtessera_codegen.so, CodegenModule.cpp):
// LLVM is loaded by the programs that generate or compile LLVM IR when they first do, not by every
// program that links core/tune (the CLI, the CPU plugin's executor).
#include "tune/Builder.h"
#include "tune/CodegenLlvm.h"

#include "support/Error.h"
#include "support/Module.h"

namespace tessera::tune {

namespace {

// The module's entry points (CodegenModule.cpp).
using EmitLlvmIr = void(const LoopNest&, std::string&);
using MakeLlvmBuilder = Builder*(const BuildOptions&);

#if TESSERA_HAVE_LLVM_MODULE
// The codegen module, tried once; where it cannot load, `why` says so.
const Module* codegenModule(std::string* why = nullptr) {
  static std::string problem;
  static const Module* module = []() -> const Module* {
    try {
      return &Module::load("codegen");
    } catch (const Error& e) {
      problem = e.what();
      return nullptr;
    }
  }();
  if (why) *why = problem;
  return module;
}
#endif

} // namespace

// Asked where options get their defaults (tune's --codegen): a look for the file, not a load.
bool llvmAvailable() {
#if TESSERA_HAVE_LLVM_MODULE
  static const bool found = !Module::find("codegen").empty();
  return found;
#else
  return false;
#endif
}

std::string generateLlvmIr(const LoopNest& nest) {
#if TESSERA_HAVE_LLVM_MODULE
  std::string why;
  const Module* module = codegenModule(&why);
  if (!module) throw Error("no LLVM code generation: " + why + " (--codegen c compiles C)");
  std::string ir;
  module->function<EmitLlvmIr>("tessera_codegen_emit_llvm_ir")(nest, ir);
  return ir;
#else
  (void)nest;
  throw Error("this build of Tessera has no LLVM code generation: install llvm-dev (Debian) and configure again, or use --codegen c");
#endif
}

std::unique_ptr<Builder> makeCpuBuilder(BuildOptions options) {
#if TESSERA_HAVE_LLVM_MODULE
  if (const Module* module = codegenModule())
    return std::unique_ptr<Builder>(module->function<MakeLlvmBuilder>("tessera_codegen_make_cpu_builder")(options));
#endif
  return std::make_unique<CompilerBuilder>(std::move(options));
}

} // namespace tessera::tune
