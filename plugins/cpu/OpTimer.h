// Times one op on the CPU as the executor runs it, lowered onto oneDNN, as a tuned kernel or
// through the reference interpreter: warm-up runs, then timed runs, the median in milliseconds.
#pragma once

#include "DnnlOp.h"

#include <string_view>

namespace tessera::tune {
class TunedKernel;
}

namespace tessera::cpu {

// Where an op's operands are when it starts: in the caches, as when an op runs again and again on
// the same buffers (a kernel benchmark), or in main memory, as in a whole model, where other ops'
// weights and activations have passed through the caches since the op's buffers were last used.
enum class OperandResidence { Cached, InMemory };
// "operands cached", "operands from memory": for device keys.
std::string_view describe(OperandResidence residence);

struct TimingPlan {
  OperandResidence operands = OperandResidence::Cached;
  int warmup = 8;
  int runs = 32;
  // Long ops (a large GEMM) get fewer repeats so a whole model profiles in seconds.
  double slowRunMs = 25.0;
  int slowWarmup = 2;
  int slowRuns = 8;
};

// Runs `op` on buffers of the signature's shapes filled with small varied values (no denormals,
// no zeros that a kernel might skip). Parameter inputs (isParameterInput) are prepared once. With
// OperandResidence::InMemory every input and output is flushed from the caches before each run,
// outside the timed part (the same for the other two timers). A filter the op reorders into a
// layout of its own would stay cached; on plain layouts oneDNN's gemm convolutions reorder none.
double timeOpMs(DnnlOp& op, const OpSignature& signature, dnnl::stream& stream, const TimingPlan& plan = {});

// A tuned kernel on the same buffers, with the same warm-up and repeats as timeOpMs, so the two
// times compare. Precondition: the kernel computes the signature's op.
double timeTunedKernelMs(const tune::TunedKernel& kernel, const OpSignature& signature, const TimingPlan& plan = {});

// The interpreter's kernel (evaluateNode) on inputs of the signature's types: floats as above,
// integer inputs (indices) zero. Throws tessera::Error when the interpreter rejects the op.
double timeInterpretedOpMs(const OpSignature& signature, const TimingPlan& plan = {});

} // namespace tessera::cpu
