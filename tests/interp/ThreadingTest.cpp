// Every parallel kernel gives the same result on one thread and on three (an odd team, so
// uneven partitions show up), whatever load the machine happens to be under.
#include "interp/KernelSupport.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

namespace tessera {
namespace {

using testing::allClose;
using testing::runOp;
using testing::testTensor;
using testing::valuesOf;

class ForcedThreads {
public:
  explicit ForcedThreads(int threads) { interp::forceParallelThreads(threads); }
  ~ForcedThreads() { interp::forceParallelThreads(0); }
};

struct Invocation {
  const char* name;
  OpKind kind;
  std::vector<Tensor> inputs;
  Attributes attrs;
};

TEST(ThreadingTest, OneThreadAndThreeThreadsAgree) {
  // Sizes are above the parallel thresholds (2^18 elements, a megaflop).
  const Tensor image = testTensor({2, 64, 34, 34}, 1);
  const std::vector<Invocation> invocations = {
      {"conv 3x3", OpKind::Conv, {image, testTensor({48, 64, 3, 3}, 2), testTensor({48}, 3)}, {{"activation", int64_t{2}}}},
      {"depthwise conv", OpKind::Conv, {image, testTensor({64, 1, 3, 3}, 4)}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}},
      {"batched matmul", OpKind::MatMul, {testTensor({3, 70, 90}, 5), testTensor({3, 90, 130}, 6)}, {}},
      {"matrix-vector gemm", OpKind::Gemm, {testTensor({1, 700}, 7), testTensor({900, 700}, 8)}, {{"transB", int64_t{1}}}},
      {"vector-matrix gemm", OpKind::Gemm, {testTensor({1, 700}, 7), testTensor({700, 900}, 9)}, {}},
      {"broadcast add", OpKind::Add, {testTensor({16, 1, 300}, 10), testTensor({1, 200, 1}, 11)}, {}},
      {"relu", OpKind::Relu, {image}, {}},
      {"batchnorm", OpKind::BatchNorm, {image, testTensor({64}, 12), testTensor({64}, 13), testTensor({64}, 14), testTensor({64}, 15, 0.5f, 1.5f)}, {}},
      {"layernorm", OpKind::LayerNorm, {image, testTensor({34}, 16)}, {}},
      {"lrn", OpKind::LRN, {image}, {{"size", int64_t{5}}}},
      {"softmax", OpKind::Softmax, {image}, {{"axis", int64_t{1}}}},
      {"maxpool", OpKind::MaxPool, {image}, {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}},
      {"avgpool", OpKind::AveragePool, {image}, {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}},
      {"global avgpool", OpKind::GlobalAveragePool, {image}, {}},
      {"transpose", OpKind::Transpose, {image}, {{"perm", std::vector<int64_t>{3, 1, 0, 2}}}},
      {"slice", OpKind::Slice, {image}, {{"starts", std::vector<int64_t>{-1}}, {"ends", std::vector<int64_t>{0}}, {"axes", std::vector<int64_t>{3}}, {"steps", std::vector<int64_t>{-2}}}},
      {"pad", OpKind::Pad, {image}, {{"pads", std::vector<int64_t>{0, 0, 2, 1, 0, 0, 1, 2}}, {"mode", std::string("reflect")}}},
  };
  for (const Invocation& invocation : invocations) {
    SCOPED_TRACE(invocation.name);
    std::vector<float> serial, parallel;
    {
      ForcedThreads one(1);
      serial = valuesOf(runOp(invocation.kind, invocation.inputs, invocation.attrs));
    }
    {
      ForcedThreads three(3);
      parallel = valuesOf(runOp(invocation.kind, invocation.inputs, invocation.attrs));
    }
    EXPECT_TRUE(allClose(parallel, serial, 1e-6, 1e-7));
  }
}

} // namespace
} // namespace tessera
