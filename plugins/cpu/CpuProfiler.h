// measured:cpu — times op signatures on this CPU the way CompiledGraph runs them, so that op costs
// add up to what the executor takes (TASO's method, in the executor's configuration): an op oneDNN
// can run exactly is timed as that primitive over plain row-major buffers, with parameters
// prepared once and the executor's thread count; any other op (Gather, Erf, Pow, a Sub whose
// first operand broadcasts, an Enlarge of activations, ...) is timed as the reference
// interpreter's kernel, which is what the executor falls back to. Layout ops that copy (Transpose,
// Slice, Concat, a Split along an inner axis) are timed like any op; data views and contiguous
// splits, which the executor slices (isContiguousSplit), are free. An op with a tuned kernel
// (TunedKernels) is timed both ways, costs the faster, and the choice is recorded for the executor.
#pragma once

#include "DnnlOp.h"
#include "OpTimer.h"
#include "TunedKernels.h"

#include "cost/OpProfiler.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace tessera::cpu {

// How the profiler times ops (cpuDeviceKey names it): as in a whole model, not a kernel benchmark.
TimingPlan profilingPlan();

// How the profiler times an op's two implementations: OpTimer's timeOpMs and timeTunedKernelMs,
// unless a test puts in others.
struct ProfilerTimers {
  std::function<double(DnnlOp&, const OpSignature&, dnnl::stream&)> library;
  std::function<double(const tune::TunedKernel&, const OpSignature&)> tuned;
};
ProfilerTimers realTimers();

class CpuProfiler final : public OpProfiler {
public:
  // `tuned` may be null (oneDNN and the interpreter only).
  explicit CpuProfiler(std::string device, std::shared_ptr<TunedKernels> tuned = nullptr, ProfilerTimers timers = realTimers());

  std::string device() const override { return device_; }
  bool canMeasure(const OpSignature& signature) override;
  double measureMs(const OpSignature& signature) override;
  bool slicesContiguousSplits() const override { return true; } // CompiledGraph's plan slices them

private:
  struct Lowered {
    std::unique_ptr<DnnlOp> op;          // nullptr: timed through the interpreter
    std::optional<double> interpretedMs; // the interpreter's time, taken when deciding (a kernel may refuse)
  };

  double libraryMs(Lowered& lowered, const OpSignature& signature);

  std::string device_;
  std::shared_ptr<TunedKernels> tuned_;
  ProfilerTimers timers_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  // Decided by canMeasure, consumed by measureMs.
  std::map<std::string, Lowered> lowered_;
};

} // namespace tessera::cpu
