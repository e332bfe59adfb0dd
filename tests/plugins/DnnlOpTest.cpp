// The oneDNN lowering of each op family against the reference interpreter's kernel on the same
// random inputs, and what it refuses (so the executor interprets those ops instead).
#include "CacheFlush.h"
#include "HugePages.h"
#include "CpuDevice.h"
#include "CpuProfiler.h"
#include "DnnlOp.h"
#include "OpTimer.h"

#include "cost/GraphCost.h"
#include "interp/Interpreter.h"
#include "interp/TestData.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include <cmath>
#include <span>

using namespace tessera;
using tessera::cpu::DnnlOp;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

struct Operand {
  TensorType type;
  float low = -1.0f, high = 1.0f;
};

const dnnl::engine& engine() {
  static dnnl::engine instance(dnnl::engine::kind::cpu, 0);
  return instance;
}

enum class RunOn { LoweringThread, AnotherThread };

// Builds the op in a graph (canonical attributes, inferred outputs), runs it through oneDNN and
// through evaluateNode, and compares every element.
void expectMatchesInterpreter(OpKind kind, const std::vector<Operand>& operands, const Attributes& attrs = {},
                              RunOn runOn = RunOn::LoweringThread) {
  Graph graph;
  std::vector<ValueRef> refs;
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    refs.push_back({graph.addInput(name, operands[i].type)});
    inputs.push_back(randomTensor(operands[i].type, 11, name, operands[i].low, operands[i].high));
  }
  const NodeId id = graph.addNode(kind, refs, attrs, "op");
  std::vector<const Tensor*> pointers;
  for (const Tensor& t : inputs) pointers.push_back(&t);
  const std::vector<Tensor> expected = evaluateNode(graph.node(id), pointers);

  std::string why;
  auto op = DnnlOp::lower(engine(), signatureOf(graph, id), DnnlOp::Purpose::Execute, &why);
  ASSERT_TRUE(op) << opName(kind) << ": " << why;
  std::vector<Tensor> outputs;
  for (const TensorType& type : graph.node(id).outputTypes) outputs.push_back(Tensor::zeros(type));
  std::vector<const float*> in;
  std::vector<float*> out;
  for (const Tensor& t : inputs) in.push_back(t.floats().data());
  for (Tensor& t : outputs) out.push_back(t.mutableFloats().data());
  const auto run = [&] {
    dnnl::stream stream(engine());
    op->execute(stream, in, out);
    op->execute(stream, in, out); // a second run (prepared inputs reused) gives the same
  };
  if (runOn == RunOn::AnotherThread)
    std::thread(run).join();
  else
    run();

  for (size_t port = 0; port < outputs.size(); ++port) {
    ASSERT_EQ(outputs[port].numel(), expected[port].numel());
    for (int64_t i = 0; i < expected[port].numel(); ++i) {
      const float want = expected[port].floatAt(i), got = outputs[port].floatAt(i);
      ASSERT_NEAR(got, want, 1e-5 + 1e-4 * std::fabs(want)) << opName(kind) << " output " << port << " element " << i;
    }
  }
}

std::string refusal(OpKind kind, const std::vector<TensorType>& inputs, const Attributes& attrs, DnnlOp::Purpose purpose) {
  Graph graph;
  std::vector<ValueRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i) refs.push_back({graph.addInput("x" + std::to_string(i), inputs[i])});
  const NodeId id = graph.addNode(kind, refs, attrs, "op");
  std::string why;
  auto op = DnnlOp::lower(engine(), signatureOf(graph, id), purpose, &why);
  return op ? std::string() : why;
}

} // namespace

TEST(DnnlOp, ConvolutionsWithStridesPadsDilationsGroupsBiasAndActivation) {
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 12, 12})}, {f32({16, 8, 3, 3})}}, {{"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::Conv, {{f32({2, 8, 13, 11})}, {f32({6, 8, 3, 3})}, {f32({6})}},
                           {{"strides", Ints{2, 2}}, {"pads", Ints{1, 0, 2, 1}}, {"activation", int64_t{2}}});
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 4, 15, 15})}, {f32({4, 4, 3, 3})}},
                           {{"dilations", Ints{2, 2}}, {"pads", Ints{2, 2, 2, 2}}, {"activation", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 9, 9})}, {f32({8, 2, 3, 3})}, {f32({8})}},
                           {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{3}}}); // 4 groups
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 9, 9})}, {f32({8, 1, 3, 3})}}, {{"pads", Ints{1, 1, 1, 1}}}); // depthwise
}

// The explorer lowers an op on its pricing thread and times it on its search thread. A strided
// convolution on three channels runs as a gemm over an im2col buffer in oneDNN's scratchpad, which
// oneDNN registers per thread: run on another thread it wrote through a null pointer.
TEST(DnnlOp, AnOpLoweredOnOneThreadRunsOnAnother) {
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 3, 224, 224})}, {f32({64, 3, 3, 3})}}, {{"strides", Ints{2, 2}}},
                           RunOn::AnotherThread);
  expectMatchesInterpreter(OpKind::ReduceMean, {{f32({2, 64, 33, 17})}}, {{"axes", Ints{2, 3}}, {"keepdims", int64_t{1}}},
                           RunOn::AnotherThread);
}

TEST(DnnlOp, MatMulAndGemm) {
  expectMatchesInterpreter(OpKind::MatMul, {{f32({5, 7})}, {f32({7, 3})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({2, 4, 5, 7})}, {f32({7, 3})}}, {{"activation", int64_t{2}}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({2, 4, 5, 7})}, {f32({2, 4, 7, 3})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({3, 5, 7})}, {f32({1, 7, 2})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({7})}, {f32({7, 3})}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({5, 7})}, {f32({7, 3})}, {f32({3})}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({7, 5})}, {f32({3, 7})}, {f32({5, 3})}}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({5, 7})}, {f32({7, 3})}}, {{"alpha", 0.5f}});
  EXPECT_NE(refusal(OpKind::Gemm, {f32({5, 7}), f32({7, 3}), f32({3})}, {{"beta", 0.5f}}, DnnlOp::Purpose::Execute), "");
  EXPECT_EQ(refusal(OpKind::Gemm, {f32({5, 7}), f32({7, 3}), f32({3})}, {{"beta", 0.5f}}, DnnlOp::Purpose::Measure), "");
}

TEST(DnnlOp, Normalisations) {
  expectMatchesInterpreter(OpKind::BatchNorm,
                           {{f32({2, 6, 5, 5})}, {f32({6})}, {f32({6})}, {f32({6})}, {f32({6}), 0.5f, 1.5f}}, {{"epsilon", 1e-3f}});
  expectMatchesInterpreter(OpKind::LayerNorm, {{f32({4, 6, 16})}, {f32({16})}, {f32({16})}});
  expectMatchesInterpreter(OpKind::LayerNorm, {{f32({4, 6, 16})}, {f32({6, 16})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::LRN, {{f32({1, 9, 5, 5})}}, {{"size", int64_t{5}}, {"alpha", 1e-3f}, {"beta", 0.75f}, {"bias", 2.0f}});
  expectMatchesInterpreter(OpKind::Softmax, {{f32({3, 5, 7})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Softmax, {{f32({3, 5, 7})}});
  EXPECT_NE(refusal(OpKind::LRN, {f32({1, 9, 5, 5})}, {{"size", int64_t{4}}}, DnnlOp::Purpose::Execute), "");
}

TEST(DnnlOp, ElementwiseUnaryAndBinary) {
  for (OpKind kind : {OpKind::Relu, OpKind::Sigmoid, OpKind::Tanh, OpKind::Exp, OpKind::Neg, OpKind::Gelu})
    expectMatchesInterpreter(kind, {{f32({3, 17})}});
  expectMatchesInterpreter(OpKind::Sqrt, {{f32({3, 17}), 0.0f, 4.0f}});
  expectMatchesInterpreter(OpKind::Clip, {{f32({3, 17})}}, {{"min", -0.25f}, {"max", 0.5f}});
  expectMatchesInterpreter(OpKind::Gelu, {{f32({3, 17})}}, {{"approximate", std::string("tanh")}});
  expectMatchesInterpreter(OpKind::HardSwish, {{f32({3, 17}), -5.0f, 5.0f}}); // both bends of relu6(x + 3)
  expectMatchesInterpreter(OpKind::Add, {{f32({2, 3, 4})}, {f32({4})}});
  expectMatchesInterpreter(OpKind::Mul, {{f32({3, 1})}, {f32({2, 3, 4})}}); // first operand broadcasts: swapped
  expectMatchesInterpreter(OpKind::Sub, {{f32({2, 3, 4})}, {f32({3, 1})}});
  expectMatchesInterpreter(OpKind::Div, {{f32({2, 3, 4})}, {f32({2, 3, 4}), 0.5f, 2.0f}});
  expectMatchesInterpreter(OpKind::ScalarMul, {{f32({2, 3, 4})}, {f32({})}});
  expectMatchesInterpreter(OpKind::Sum, {{f32({2, 5})}, {f32({2, 5})}, {f32({2, 5})}});
  // What oneDNN cannot compute exactly is refused for execution but timed by a proxy.
  EXPECT_NE(refusal(OpKind::Erf, {f32({4})}, {}, DnnlOp::Purpose::Execute), "");
  EXPECT_EQ(refusal(OpKind::Erf, {f32({4})}, {}, DnnlOp::Purpose::Measure), "");
  EXPECT_NE(refusal(OpKind::Sub, {f32({3, 1}), f32({2, 3, 4})}, {}, DnnlOp::Purpose::Execute), "");
  EXPECT_NE(refusal(OpKind::Add, {f32({3, 1}), f32({1, 4})}, {}, DnnlOp::Purpose::Measure), "");
  EXPECT_NE(refusal(OpKind::Pow, {f32({4}), f32({})}, {}, DnnlOp::Purpose::Execute), "");
  EXPECT_EQ(refusal(OpKind::Pow, {f32({4}), f32({})}, {}, DnnlOp::Purpose::Measure), "");
}

TEST(DnnlOp, Pooling) {
  expectMatchesInterpreter(OpKind::MaxPool, {{f32({1, 3, 9, 9})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::MaxPool, {{f32({1, 3, 10, 10})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({2, 3, 9, 9})}},
                           {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"count_include_pad", int64_t{1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({2, 3, 9, 9})}}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({1, 2, 10, 10})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  expectMatchesInterpreter(OpKind::GlobalAveragePool, {{f32({2, 5, 7, 6})}});
  expectMatchesInterpreter(OpKind::ReduceMean, {{f32({2, 5, 7})}}, {{"axes", Ints{-1}}});
  expectMatchesInterpreter(OpKind::ReduceMean, {{f32({2, 5, 7})}}, {{"axes", Ints{0, 2}}, {"keepdims", int64_t{0}}});
}

TEST(DnnlOp, LayoutOps) {
  expectMatchesInterpreter(OpKind::Concat, {{f32({2, 3, 4})}, {f32({2, 5, 4})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Split, {{f32({2, 9, 4})}}, {{"axis", int64_t{1}}, {"split", Ints{2, 3, 4}}});
  expectMatchesInterpreter(OpKind::Transpose, {{f32({2, 3, 4, 5})}}, {{"perm", Ints{0, 2, 3, 1}}});
  expectMatchesInterpreter(OpKind::Slice, {{f32({6, 8})}}, {{"starts", Ints{1, -6}}, {"ends", Ints{5, 100}}, {"axes", Ints{0, 1}}, {"steps", Ints{2, 1}}});
  expectMatchesInterpreter(OpKind::Reshape, {{f32({6, 8})}}, {{"shape", Ints{4, 12}}});
}

TEST(CpuProfiler, TimesOpsAsTheExecutorRunsThem) {
  cpu::CpuProfiler profiler("cpu:test");
  const OpSignature conv{OpKind::Conv, {f32({1, 16, 28, 28}), f32({16, 16, 3, 3})}, {f32({1, 16, 26, 26})}, {}};
  ASSERT_TRUE(profiler.canMeasure(conv));
  const double ms = profiler.measureMs(conv);
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 1000.0);
  // The executor interprets a Gather (int64 indices), so the profiler times the interpreter's kernel.
  const OpSignature gather{OpKind::Gather, {f32({10, 4}), {DType::Int64, {3}}}, {f32({3, 4})}, {}};
  ASSERT_TRUE(profiler.canMeasure(gather));
  EXPECT_GT(profiler.measureMs(gather), 0.0);
  // A transpose is a copy in the executor (a oneDNN reorder), not free.
  const OpSignature transpose{OpKind::Transpose, {f32({64, 32, 16})}, {f32({16, 32, 64})}, {{"perm", Ints{2, 1, 0}}}};
  ASSERT_TRUE(profiler.canMeasure(transpose));
  EXPECT_GT(profiler.measureMs(transpose), 0.0);
  EXPECT_FALSE(profiler.canMeasure({OpKind::Relu, {{DType::Float16, {8}}}, {{DType::Float16, {8}}}, {}}));
}

TEST(CacheFlush, LeavesTheValuesAndTakesAnySpan) {
  std::vector<float> values(10000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  const std::span<const std::byte> bytes = std::as_bytes(std::span(values));
  cpu::flushFromCaches(bytes.subspan(3, 9001)); // neither start nor end on a cache line
  cpu::flushFromCaches(bytes.subspan(0, 0));
  cpu::flushFromCaches(bytes);
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], static_cast<float>(i) * 0.5f) << i;
}

namespace {

// Kilobytes of this process's anonymous memory in huge pages (/proc/self/smaps_rollup).
long anonymousHugePagesKb() {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string key;
  long kb = 0;
  while (rollup >> key)
    if (key == "AnonHugePages:" && rollup >> kb) return kb;
  return 0;
}

} // namespace

// Collapsing keeps every value, takes any span, and where the kernel offers huge pages, a 6 MB
// buffer then lies at least partly on them.
TEST(HugePages, KeepTheValuesAndBackLargeBuffersWhereTheKernelGivesThem) {
  std::vector<float> values(6 << 18); // 6 MB
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) * 0.25f;
  const long before = anonymousHugePagesKb();
  const std::span<const std::byte> bytes = std::as_bytes(std::span(values));
  cpu::backWithHugePages(bytes.subspan(0, 0));
  cpu::backWithHugePages(bytes.subspan(5, 1000)); // a small piece: its huge page reaches past it
  cpu::backWithHugePages(bytes);
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], static_cast<float>(i % 1000) * 0.25f) << i;
  if (cpu::hugePagesAvailable()) {
    EXPECT_GE(anonymousHugePagesKb() - before, 2048) << "a 6 MB buffer holds at least one aligned 2 MB range";
  }
}

TEST(CpuProfiler, TimesOpsWithTheirOperandsInMainMemoryAndItsDeviceKeySaysSo) {
  // Op costs that add up to a whole model's time: there, other ops' data has passed through the
  // caches since an op last ran. Costs timed otherwise are kept apart by the device key.
  EXPECT_EQ(cpu::profilingPlan().operands, cpu::OperandResidence::InMemory);
  EXPECT_NE(cpu::cpuDeviceKey().find(", operands from memory)"), std::string::npos) << cpu::cpuDeviceKey();
  // Timings on huge pages are kept apart from timings on small ones.
  EXPECT_EQ(cpu::cpuDeviceKey().find("executor timings on huge pages") != std::string::npos, cpu::hugePagesAvailable())
      << cpu::cpuDeviceKey();
  EXPECT_NE(cpu::describe(cpu::OperandResidence::Cached), cpu::describe(cpu::OperandResidence::InMemory));
  // Flushing every operand before each run leaves a time to take.
  const OpSignature conv{OpKind::Conv, {f32({1, 8, 12, 12}), f32({8, 8, 3, 3})}, {f32({1, 8, 10, 10})}, {}};
  auto op = DnnlOp::lower(engine(), conv, DnnlOp::Purpose::Execute);
  ASSERT_NE(op, nullptr);
  dnnl::stream stream(engine());
  cpu::TimingPlan plan = cpu::profilingPlan();
  plan.warmup = 1;
  plan.runs = 3;
  EXPECT_GT(cpu::timeOpMs(*op, conv, stream, plan), 0.0);
}
