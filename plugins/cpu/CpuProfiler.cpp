#include "CpuProfiler.h"

#include "CpuDevice.h"
#include "OpTimer.h"

#include "support/Error.h"

namespace tessera::cpu {

CpuProfiler::CpuProfiler(std::string device)
    : device_(std::move(device)), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

bool CpuProfiler::canMeasure(const OpSignature& signature) {
  const std::string key = signature.key();
  auto it = lowered_.find(key);
  if (it == lowered_.end()) {
    // Measured costs are float32 timings; other types would be timed as something they are not.
    bool float32 = true;
    for (const TensorType& t : signature.inputs) float32 = float32 && t.dtype == DType::Float32;
    auto op = float32 ? DnnlOp::lower(engine_, signature, DnnlOp::Purpose::Measure) : nullptr;
    it = lowered_.emplace(key, std::move(op)).first;
  }
  return it->second != nullptr;
}

double CpuProfiler::measureMs(const OpSignature& signature) {
  if (!canMeasure(signature)) throw Error("measured:cpu cannot time " + signature.key());
  auto it = lowered_.find(signature.key());
  std::unique_ptr<DnnlOp> op = std::move(it->second);
  lowered_.erase(it); // measured once; the cost cache remembers the result
  try {
    useCpuThreads();
    return timeOpMs(*op, signature, stream_);
  } catch (const dnnl::error& e) {
    throw Error("oneDNN failed while timing " + signature.key() + ": " + e.what());
  }
}

} // namespace tessera::cpu
