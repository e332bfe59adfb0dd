#include "CudaProfiler.h"

#include "GpuTimer.h"

#include "support/Error.h"

#include <algorithm>
#include <vector>

namespace tessera::cuda {

namespace {

// Small varied values: no denormals, no zeros a kernel might skip, positive (a variance, a
// square root's or a logarithm's argument stays valid).
std::vector<float> sampleValues(int64_t count, size_t salt) {
  std::vector<float> values(static_cast<size_t>(std::max<int64_t>(count, 1)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f + static_cast<float>((i * 7919 + salt * 104729) % 1000) / 2000.0f;
  return values;
}

} // namespace

CudaProfiler::CudaProfiler(std::string device) : device_(std::move(device)) {}

bool CudaProfiler::canMeasure(const OpSignature& signature) {
  const std::string key = signature.key();
  auto it = lowered_.find(key);
  if (it == lowered_.end()) {
    bool float32 = true;
    for (const TensorType& t : signature.inputs) float32 = float32 && t.dtype == DType::Float32;
    for (const TensorType& t : signature.outputs) float32 = float32 && t.dtype == DType::Float32;
    it = lowered_.emplace(key, float32 ? CudaOp::lower(context_, signature) : nullptr).first;
  }
  return it->second != nullptr;
}

double CudaProfiler::measureMs(const OpSignature& signature) {
  if (!canMeasure(signature)) throw Error("measured:cuda cannot time " + signature.key());
  auto it = lowered_.find(signature.key());
  std::unique_ptr<CudaOp> op = std::move(it->second);
  lowered_.erase(it); // measured once; the cost cache remembers the result

  std::vector<DeviceBuffer> buffers;
  std::vector<const float*> inputs;
  std::vector<float*> outputs;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const std::vector<float> values = sampleValues(signature.inputs[i].numel(), i);
    buffers.emplace_back(sizeof(float) * values.size());
    context_.upload(buffers.back().floats(), values.data(), values.size());
    inputs.push_back(buffers.back().floats());
  }
  for (const TensorType& type : signature.outputs) {
    buffers.emplace_back(sizeof(float) * static_cast<size_t>(std::max<int64_t>(type.numel(), 1)));
    outputs.push_back(buffers.back().floats());
  }
  // The algorithm search and one untimed run pay the one-time costs (module loading, lazy kernel
  // loading, workspace growth) before the warm-up proper.
  op->prepare(inputs, outputs);
  op->execute(inputs, outputs);
  return medianRunMs(context_, kWarmupRuns, kTimedRuns, [&] { op->execute(inputs, outputs); });
}

} // namespace tessera::cuda
