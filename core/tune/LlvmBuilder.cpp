// Compiling LLVM IR candidates in-process, linking them with the system compiler driver.
#include "tune/LlvmBuilder.h"

#include "tune/Subprocess.h"

#include "support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/MC/SubtargetFeature.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace tessera::tune {

namespace fs = std::filesystem;

namespace {

void initializeLlvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

using Clock = std::chrono::steady_clock;

} // namespace

// Sorted (a StringMap's order is not fixed); read once, not for every candidate.
const std::string& llvmHostFeatures() {
  static const std::string joined = [] {
    llvm::StringMap<bool> host;
    std::vector<std::string> features;
    if (llvm::sys::getHostCPUFeatures(host))
      for (const auto& feature : host) features.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(features.begin(), features.end());
    std::string text;
    for (const std::string& feature : features) text += (text.empty() ? "" : ",") + feature;
    return text;
  }();
  return joined;
}

namespace {

// -march=native, -O3 and -ffp-contract=fast, as the C candidates are compiled.
std::unique_ptr<llvm::TargetMachine> hostMachine(std::string& error) {
  const std::string triple = llvm::sys::getProcessTriple();
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) return nullptr;
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(triple, llvm::sys::getHostCPUName(), llvmHostFeatures(), options,
                                                                          llvm::Reloc::PIC_, llvm::None, llvm::CodeGenOpt::Aggressive));
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder passes(&machine, tuning);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, modules);
}

// The IR compiled to `out` as an object file or assembly text; the error, or empty.
std::string compileTo(const std::string& ir, llvm::raw_pwrite_stream& out, llvm::CodeGenFileType type) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseIR(llvm::MemoryBufferRef(ir, "kernel.ll"), diagnostic, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream out(message);
    diagnostic.print("kernel.ll", out, false);
    return "invalid LLVM IR: " + out.str();
  }
  std::string error;
  llvm::raw_string_ostream errors(error);
  if (llvm::verifyModule(*module, &errors)) return "invalid LLVM IR: " + errors.str();
  std::unique_ptr<llvm::TargetMachine> machine = hostMachine(error);
  if (!machine) return "no LLVM target for this machine: " + error;
  module->setTargetTriple(machine->getTargetTriple().str());
  module->setDataLayout(machine->createDataLayout());
  optimize(*module, *machine);
  llvm::legacy::PassManager emit;
  if (machine->addPassesToEmitFile(emit, out, nullptr, type)) return "LLVM cannot emit code for this machine";
  emit.run(*module);
  return "";
}

// The IR compiled to an object file at `object`; the error, or empty.
std::string compileToObject(const std::string& ir, const std::string& object) {
  std::error_code ec;
  llvm::raw_fd_ostream file(object, ec, llvm::sys::fs::OF_None);
  if (ec) return "cannot write " + object + ": " + ec.message();
  if (std::string error = compileTo(ir, file, llvm::CGFT_ObjectFile); !error.empty()) return error;
  file.flush();
  return file.has_error() ? "cannot write " + object : "";
}

} // namespace

std::string compileLlvmIrToAssembly(const std::string& ir) {
  initializeLlvm();
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream out(text);
  if (std::string error = compileTo(ir, out, llvm::CGFT_AssemblyFile); !error.empty()) throw Error("LLVM: " + error);
  return std::string(text.str());
}

LlvmBuilder::LlvmBuilder(BuildOptions options) : options_(options), compiler_(options) {
  initializeLlvm();
  if (options_.cacheDir.empty()) options_.cacheDir = defaultCacheDir();
  machineKey_ = std::string("llvm ") + LLVM_VERSION_STRING + " O3 " + llvm::sys::getHostCPUName().str() + " " + llvmHostFeatures() +
                " linked by " + options_.compiler;
}

std::vector<BuildResult> LlvmBuilder::build(const std::vector<BuildInput>& inputs) {
  std::vector<BuildResult> results(inputs.size());
  std::vector<BuildInput> cInputs;
  std::vector<size_t> cIndices, pending;
  std::vector<std::string> keys(inputs.size());
  std::map<std::string, size_t> firstWithKey; // a kernel twice in one batch is built once
  std::vector<std::pair<size_t, size_t>> repeats;
  const fs::path dir = options_.cacheDir;
  auto libraryOf = [&](size_t i) { return (dir / ("k" + keys[i] + ".so")).string(); };
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].language != KernelLanguage::LlvmIr) {
      cInputs.push_back(inputs[i]);
      cIndices.push_back(i);
      continue;
    }
    keys[i] = contentHash(machineKey_ + (inputs[i].openmp ? " openmp" : "") + "\n" + inputs[i].source);
    if (auto [first, inserted] = firstWithKey.emplace(keys[i], i); !inserted) {
      repeats.emplace_back(i, first->second);
    } else if (fs::exists(libraryOf(i))) {
      results[i].library = libraryOf(i);
      results[i].cached = true;
    } else {
      pending.push_back(i);
    }
  }
  if (!cInputs.empty()) {
    std::vector<BuildResult> built = compiler_.build(cInputs);
    for (size_t k = 0; k < built.size(); ++k) results[cIndices[k]] = std::move(built[k]);
  }

  // Compile to objects, `jobs` threads at a time, then link them the same way.
  const std::string suffix = ".tmp" + std::to_string(::getpid());
  auto objectOf = [&](size_t i) { return (dir / ("k" + keys[i] + ".o" + suffix)).string(); };
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k = next++; k < pending.size(); k = next++) {
      const size_t i = pending[k];
      const auto start = Clock::now();
      if (std::string error = compileToObject(inputs[i].source, objectOf(i)); !error.empty()) results[i].error = "LLVM: " + error;
      results[i].seconds = std::chrono::duration<double>(Clock::now() - start).count();
    }
  };
  std::vector<std::thread> threads;
  const size_t workers = std::min<size_t>(std::max(options_.jobs, 1), pending.size());
  for (size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  if (workers > 0) work();
  for (std::thread& thread : threads) thread.join();

  std::vector<Command> links;
  std::vector<size_t> linked;
  for (size_t i : pending) {
    if (!results[i].error.empty()) continue;
    std::vector<std::string> argv{options_.compiler, "-shared", "-o", libraryOf(i) + suffix, objectOf(i)};
    if (inputs[i].openmp) argv.push_back("-fopenmp");
    links.push_back({argv, {}, libraryOf(i) + suffix + ".log"});
    linked.push_back(i);
  }
  std::vector<ProcessResult> processes = runCommands(links, options_.jobs, options_.timeoutSeconds);
  for (size_t k = 0; k < linked.size(); ++k) {
    BuildResult& result = results[linked[k]];
    result.seconds += processes[k].seconds;
    const std::string library = libraryOf(linked[k]);
    std::error_code ec;
    // Into a private name, then renamed: another tuner on the same cache never sees half a file.
    if (!processes[k].succeeded()) {
      fs::remove(library + suffix, ec);
      result.error = "link failed (" + processes[k].describe() + "): " + processes[k].output.substr(0, 2000);
    } else if (fs::rename(library + suffix, library, ec); ec) {
      result.error = "cannot move the linked kernel to " + library + ": " + ec.message();
    } else {
      result.library = library;
    }
  }
  for (size_t i : pending) {
    std::error_code ec;
    fs::remove(objectOf(i), ec);
  }
  for (const auto& [repeat, first] : repeats) {
    results[repeat] = results[first];
    results[repeat].cached = results[first].ok();
  }
  return results;
}

} // namespace tessera::tune
