#include "CpuProfiler.h"

#include "CpuDevice.h"
#include "OpTimer.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::cpu {

namespace {

// The executor interprets what it cannot lower: every op of the table but an opaque one.
bool interpretable(const OpSignature& signature) {
  if (signature.kind == OpKind::Opaque || signature.kind == OpKind::Input || signature.kind == OpKind::Weight) return false;
  return !signature.outputs.empty();
}

} // namespace

// In a whole model an op's operands come from main memory: op costs timed on cached buffers added
// up to 20 % less than models measured end to end (MAPE over 48 graphs of six samples, 2-core
// EPYC; NasRNN, whose weights are 84 MB, 57 %); with every operand flushed first, 6 %.
// An op of 2 ms or more gets the slow ops' 2 warm-up and 8 timed runs: a cold cache's profiling was
// mostly such ops (ResNet-50's convolutions, met by an MCTS search, took minutes at 40 runs each).
// Two profiles then differ a little more on those ops (median 3.9 % against 2.0 %), within what
// the machine moves between runs; `costs accuracy` on five samples kept its MAPE and Spearman
// (README, "Op costs that add up to a model's time").
TimingPlan profilingPlan() {
  TimingPlan plan;
  plan.operands = OperandResidence::InMemory;
  plan.slowRunMs = 2.0;
  return plan;
}

ProfilerTimers realTimers() {
  const TimingPlan plan = profilingPlan();
  return {[plan](DnnlOp& op, const OpSignature& signature, dnnl::stream& stream) { return timeOpMs(op, signature, stream, plan); },
          [plan](const tune::TunedKernel& kernel, const OpSignature& signature) { return timeTunedKernelMs(kernel, signature, plan); }};
}

CpuProfiler::CpuProfiler(std::string device, std::shared_ptr<TunedKernels> tuned, ProfilerTimers timers)
    : device_(std::move(device)), tuned_(std::move(tuned)), timers_(std::move(timers)), engine_(dnnl::engine::kind::cpu, 0),
      stream_(engine_) {}

bool CpuProfiler::canMeasure(const OpSignature& signature) {
  const std::string key = signature.key();
  auto it = lowered_.find(key);
  if (it == lowered_.end()) {
    // Measured costs are float32 timings; other types would be timed as something they are not.
    bool float32 = true;
    for (const TensorType& t : signature.outputs) float32 = float32 && t.dtype == DType::Float32;
    Lowered lowered;
    if (float32) {
      bool floatInputs = true;
      for (const TensorType& t : signature.inputs) floatInputs = floatInputs && t.dtype == DType::Float32;
      if (floatInputs) lowered.op = DnnlOp::lower(engine_, signature, DnnlOp::Purpose::Execute);
      if (!lowered.op && interpretable(signature)) {
        // Whether the interpreter takes these types and attributes shows only by running it.
        try {
          useCpuThreads();
          lowered.interpretedMs = timeInterpretedOpMs(signature, profilingPlan());
        } catch (const Error&) {
          lowered.interpretedMs.reset();
        }
      }
    }
    it = lowered_.emplace(key, std::move(lowered)).first;
  }
  return it->second.op != nullptr || it->second.interpretedMs.has_value();
}

double CpuProfiler::measureMs(const OpSignature& signature) {
  if (!canMeasure(signature)) throw Error("measured:cpu cannot time " + signature.key());
  auto it = lowered_.find(signature.key());
  Lowered lowered = std::move(it->second);
  lowered_.erase(it); // measured once; the cost cache remembers the result
  const double library = libraryMs(lowered, signature);
  const tune::TunedKernel* kernel = tuned_ ? tuned_->kernelFor(signature) : nullptr;
  if (!kernel) return library;
  useCpuThreads(); // the kernel's OpenMP team: the thread count it was tuned for
  const double tunedMs = timers_.tuned(*kernel, signature);
  tuned_->recordChoice(signature, *kernel, tunedMs, library);
  return std::min(tunedMs, library);
}

double CpuProfiler::libraryMs(Lowered& lowered, const OpSignature& signature) {
  if (!lowered.op) return *lowered.interpretedMs;
  useCpuThreads();
  try {
    return timers_.library(*lowered.op, signature, stream_);
  } catch (const dnnl::error& e) {
    throw Error("oneDNN failed while timing " + signature.key() + ": " + e.what());
  }
}

} // namespace tessera::cpu
