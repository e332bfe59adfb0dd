#include "OpTimer.h"

#include "CacheFlush.h"
#include "HugePages.h"

#include "interp/Interpreter.h"
#include "support/Error.h"
#include "tune/TunedKernel.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <new>
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

// Warm-up and timed runs of `runOnce` (which returns its own milliseconds) by the plan; the median.
template <class Run>
double timeRuns(Run runOnce, const TimingPlan& plan) {
  runOnce(); // pays one-time costs (page faults, JIT, preparing parameters)
  const bool slow = runOnce() > plan.slowRunMs;
  const int warmup = slow ? plan.slowWarmup : plan.warmup;
  const int runs = slow ? plan.slowRuns : plan.runs;
  for (int i = 0; i < warmup; ++i) runOnce();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(runOnce());
  return median(times);
}

struct FreeFloats {
  void operator()(float* data) const { std::free(data); }
};

// `count` floats of one block on huge pages where the kernel gives them, as the executor's buffers
// are (CompiledGraph). The block is kept for the thread's next timing: collapsing pages copies them
// and often compacts memory, which would double the time to profile a model if paid per op. A
// block far larger than needed (after VGG-19's 400 MB classifier) is given back.
std::span<float> sampleBlock(size_t count) {
  constexpr size_t hugePage = size_t{2} << 20;
  thread_local std::unique_ptr<float, FreeFloats> block;
  thread_local size_t capacity = 0; // floats
  const size_t bytes = (std::max<size_t>(count, 1) * sizeof(float) + hugePage - 1) / hugePage * hugePage;
  const bool tooSmall = bytes / sizeof(float) > capacity;
  const bool farTooLarge = capacity * sizeof(float) > 32 * hugePage && bytes / sizeof(float) < capacity / 4;
  if (tooSmall || farTooLarge) {
    block.reset(); // before allocating the next, so both never coexist
    capacity = 0;
    block.reset(static_cast<float*>(std::aligned_alloc(hugePage, bytes)));
    if (!block) throw std::bad_alloc();
    capacity = bytes / sizeof(float);
    std::fill_n(block.get(), capacity, 0.0f);
    backWithHugePages(std::as_bytes(std::span(block.get(), capacity)));
  }
  return {block.get(), count};
}

// Dense buffers of the signature's shapes, inputs filled with sampleValues and outputs zeroed,
// laid out one after another (64-byte aligned) in the thread's sample block, which only one of
// them at a time may use.
struct SampleBuffers {
  void flushFromCaches() const {
    for (std::span<const float> buffer : inputs) cpu::flushFromCaches(std::as_bytes(buffer));
    for (std::span<const float> buffer : outputs) cpu::flushFromCaches(std::as_bytes(buffer));
  }

  std::vector<std::span<float>> inputs, outputs;
  std::vector<const float*> inputPointers;
  std::vector<float*> outputPointers;

  SampleBuffers(const SampleBuffers&) = delete;
  SampleBuffers& operator=(const SampleBuffers&) = delete;
  ~SampleBuffers() { blockInUse() = false; }

  explicit SampleBuffers(const OpSignature& signature) {
    if (blockInUse()) throw Error("internal: two op timings share one thread's sample block");
    auto elements = [](const TensorType& type) { return static_cast<size_t>(std::max<int64_t>(type.numel(), 1)); };
    auto padded = [](size_t count) { return (count + 15) / 16 * 16; }; // 64 bytes of floats
    size_t total = 0;
    for (const TensorType& type : signature.inputs) total += padded(elements(type));
    for (const TensorType& type : signature.outputs) total += padded(elements(type));
    float* next = sampleBlock(total).data();
    for (size_t i = 0; i < signature.inputs.size(); ++i) {
      const std::vector<float> values = sampleValues(signature.inputs[i].numel(), i);
      inputs.emplace_back(next, values.size());
      std::copy(values.begin(), values.end(), next);
      next += padded(values.size());
    }
    for (const TensorType& type : signature.outputs) {
      outputs.emplace_back(next, elements(type));
      std::fill(outputs.back().begin(), outputs.back().end(), 0.0f);
      next += padded(elements(type));
    }
    for (std::span<float> buffer : inputs) inputPointers.push_back(buffer.data());
    for (std::span<float> buffer : outputs) outputPointers.push_back(buffer.data());
    blockInUse() = true; // last: a constructor that throws leaves the block free
  }

private:
  static bool& blockInUse() {
    thread_local bool inUse = false;
    return inUse;
  }
};

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

} // namespace

std::string_view describe(OperandResidence residence) {
  return residence == OperandResidence::InMemory ? "operands from memory" : "operands cached";
}

double timeOpMs(DnnlOp& op, const OpSignature& signature, dnnl::stream& stream, const TimingPlan& plan) {
  SampleBuffers buffers(signature);
  for (size_t i = 0; i < signature.inputs.size(); ++i)
    if (isParameterInput(signature.kind, i)) op.setConstant(i);
  return timeRuns(
      [&] {
        if (plan.operands == OperandResidence::InMemory) buffers.flushFromCaches();
        const auto start = Clock::now();
        op.execute(stream, buffers.inputPointers, buffers.outputPointers);
        return millisecondsSince(start);
      },
      plan);
}

double timeTunedKernelMs(const tune::TunedKernel& kernel, const OpSignature& signature, const TimingPlan& plan) {
  SampleBuffers buffers(signature);
  return timeRuns(
      [&] {
        if (plan.operands == OperandResidence::InMemory) buffers.flushFromCaches();
        const auto start = Clock::now();
        kernel.run(buffers.inputPointers, buffers.outputPointers.at(0));
        return millisecondsSince(start);
      },
      plan);
}

double timeInterpretedOpMs(const OpSignature& signature, const TimingPlan& plan) {
  Node node;
  node.kind = signature.kind;
  node.attrs = signature.attrs;
  node.outputTypes = signature.outputs;
  node.inputs.assign(signature.inputs.size(), ValueRef{0, 0}); // the kernel counts them; it reads the tensors given
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    Tensor input = Tensor::zeros(signature.inputs[i]); // indices stay zero: always in range
    if (input.holdsFloats()) {
      const std::vector<float> values = sampleValues(input.numel(), i);
      std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(input.floats().size()), input.mutableFloats().begin());
    }
    inputs.push_back(std::move(input));
  }
  std::vector<const Tensor*> arguments;
  for (const Tensor& t : inputs) arguments.push_back(&t);
  return timeRuns(
      [&] {
        if (plan.operands == OperandResidence::InMemory)
          for (const Tensor& input : inputs)
            if (input.holdsFloats()) flushFromCaches(std::as_bytes(input.floats())); // its results are new tensors
        const auto start = Clock::now();
        const std::vector<Tensor> results = evaluateNode(node, arguments);
        return millisecondsSince(start);
      },
      plan);
}

} // namespace tessera::cpu
