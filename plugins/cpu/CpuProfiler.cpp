#include "CpuProfiler.h"

#include "CpuDevice.h"
#include "OpTimer.h"

#include "support/Error.h"

namespace tessera::cpu {

namespace {

// The executor interprets what it cannot lower: every op of the table but an opaque one.
bool interpretable(const OpSignature& signature) {
  if (signature.kind == OpKind::Opaque || signature.kind == OpKind::Input || signature.kind == OpKind::Weight) return false;
  return !signature.outputs.empty();
}

} // namespace

CpuProfiler::CpuProfiler(std::string device)
    : device_(std::move(device)), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

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
          lowered.interpretedMs = timeInterpretedOpMs(signature);
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
  if (!lowered.op) return *lowered.interpretedMs;
  useCpuThreads();
  try {
    return timeOpMs(*lowered.op, signature, stream_);
  } catch (const dnnl::error& e) {
    throw Error("oneDNN failed while timing " + signature.key() + ": " + e.what());
  }
}

} // namespace tessera::cpu
