#include "OpTimer.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace tessera::cpu {

namespace {

std::vector<float> sampleValues(int64_t count, size_t salt) {
  std::vector<float> values(static_cast<size_t>(std::max<int64_t>(count, 1)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f + static_cast<float>((i * 7919 + salt * 104729) % 1000) / 2000.0f;
  return values;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

double timeOpMs(DnnlOp& op, const OpSignature& signature, dnnl::stream& stream, const TimingPlan& plan) {
  std::vector<std::vector<float>> inputs, outputs;
  std::vector<const float*> inputPointers;
  std::vector<float*> outputPointers;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    inputs.push_back(sampleValues(signature.inputs[i].numel(), i));
    if (isParameterInput(signature.kind, i)) op.setConstant(i);
  }
  for (const TensorType& type : signature.outputs) outputs.emplace_back(static_cast<size_t>(std::max<int64_t>(type.numel(), 1)));
  for (const auto& buffer : inputs) inputPointers.push_back(buffer.data());
  for (auto& buffer : outputs) outputPointers.push_back(buffer.data());

  using Clock = std::chrono::steady_clock;
  auto runOnce = [&] {
    const auto start = Clock::now();
    op.execute(stream, inputPointers, outputPointers);
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  runOnce(); // prepares the parameters and pays one-time costs (page faults, JIT)
  const bool slow = runOnce() > plan.slowRunMs;
  const int warmup = slow ? plan.slowWarmup : plan.warmup;
  const int runs = slow ? plan.slowRuns : plan.runs;
  for (int i = 0; i < warmup; ++i) runOnce();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(runOnce());
  return median(times);
}

} // namespace tessera::cpu
