// Loading a tuned kernel into the process.
#include "tune/TunedKernel.h"

#include "tune/CodegenC.h"
#include "tune/CodegenLlvm.h"
#include "tune/Tuner.h"

#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <optional>

#include <dlfcn.h>

namespace tessera::tune {

std::string traceWithMachineCode(const std::string& traceJson, const MachineCode& machineCode, const std::string& refinedHash,
                                 const std::string& provenanceJson) {
  nlohmann::json trace = nlohmann::json::parse(traceJson);
  nlohmann::json code = nlohmann::json::parse(provenanceJson);
  code["language"] = languageName(KernelLanguage::Asm);
  code["source"] = machineCode.source;
  code["openmp"] = machineCode.openmp;
  code["refines"] = refinedHash;
  trace["machine_code"] = std::move(code);
  return trace.dump();
}

std::optional<MachineCode> machineCodeOf(const std::string& traceJson) {
  const nlohmann::json trace = nlohmann::json::parse(traceJson, nullptr, false);
  if (!trace.is_object() || !trace.contains("machine_code")) return std::nullopt;
  const nlohmann::json& code = trace["machine_code"];
  if (!code.is_object() || code.value("language", "") != languageName(KernelLanguage::Asm) || !code.contains("source") ||
      !code["source"].is_string() || !code.value("openmp", nlohmann::json(false)).is_boolean())
    throw Error("trace: 'machine_code' is not {\"language\": \"asm\", \"source\": text, \"openmp\": bool}");
  return MachineCode{code["source"].get<std::string>(), code.value("openmp", false)};
}

std::unique_ptr<TunedKernel> TunedKernel::load(const TuningRecord& record, Builder& builder) {
  const std::string what = "tuned kernel " + record.hash + " of " + record.workload;
  // The record's timing and verification belong to the source it measured, nothing else: the
  // language whose generator still writes that source (its hash) is the one to build.
  std::optional<Candidate> candidate;
  std::string generated; // the other kernels the trace generates, for the error
  Workload workload;
  try {
    workload = parseWorkload(record.workload);
    const Trace trace = traceFromJson(record.trace);
    if (std::optional<MachineCode> machineCode = machineCodeOf(record.trace)) {
      Candidate refined;
      refined.trace = trace;
      refined.source = std::move(machineCode->source);
      refined.hash = contentHash(refined.source);
      refined.language = KernelLanguage::Asm;
      refined.openmp = machineCode->openmp;
      if (refined.hash == record.hash) candidate = std::move(refined);
      else generated = refined.hash + " in asm";
    }
    for (KernelLanguage language : {KernelLanguage::LlvmIr, KernelLanguage::C}) {
      if (candidate) break;
      if (language == KernelLanguage::LlvmIr && !llvmAvailable()) continue;
      Candidate lowered = lowerCandidate(computeOf(workload), trace, language);
      if (lowered.hash == record.hash) {
        candidate = std::move(lowered);
        break;
      }
      generated += (generated.empty() ? "" : ", ") + lowered.hash + " in " + languageName(language);
    }
  } catch (const Error& e) {
    throw Error(what + ": its trace does not replay: " + e.what());
  }
  if (!candidate)
    throw Error(what + ": the trace now generates kernel " + generated + " (the code generator changed since it was tuned)");
  BuildResult built = builder.build({{candidate->source, candidate->openmp, candidate->language}}).at(0);
  if (!built.ok()) throw Error(what + ": " + built.error);

  std::unique_ptr<TunedKernel> kernel(new TunedKernel());
  kernel->workload_ = workload;
  kernel->inputs_ = workload.inputShapes().size();
  kernel->hash_ = record.hash;
  kernel->library_ = built.library;
  kernel->handle_ = ::dlopen(built.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!kernel->handle_) throw Error(what + ": dlopen " + built.library + ": " + ::dlerror());
  kernel->function_ = reinterpret_cast<Function>(::dlsym(kernel->handle_, kKernelSymbol));
  if (!kernel->function_) throw Error(what + ": " + built.library + " has no " + kKernelSymbol);
  return kernel;
}

TunedKernel::~TunedKernel() {
  if (handle_) ::dlclose(handle_);
}

void TunedKernel::run(std::span<const float* const> inputs, float* out) const {
  if (inputs.size() != inputs_)
    throw Error("tuned kernel of " + workload_.key() + " takes " + std::to_string(inputs_) + " inputs, got " +
                std::to_string(inputs.size()));
  function_(inputs.data(), out);
}

} // namespace tessera::tune
