// LSTM: one cell step against the gate equations written out here, and the directions and
// layouts against each other (reverse = forward on the reversed sequence; bidirectional = both;
// layout 1 = layout 0 transposed). ONNX's node tests cover it against ONNX's reference too.
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera {
namespace {

using testing::allClose;
using testing::errorOf;
using testing::runOpOutputs;
using testing::testTensor;
using testing::valuesOf;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST(Lstm, OneStepFollowsTheGateEquations) {
  // hidden 1, input 1: gates in i, o, f, c order; peepholes i, o, f.
  const Tensor x = Tensor::fromFloats({1, 1, 1}, {0.5f});
  const Tensor w = Tensor::fromFloats({1, 4, 1}, {0.1f, 0.2f, 0.3f, 0.4f});
  const Tensor r = Tensor::fromFloats({1, 4, 1}, {-0.5f, 0.6f, 0.7f, -0.8f});
  const Tensor b = Tensor::fromFloats({1, 8}, {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f});
  const Tensor h0 = Tensor::fromFloats({1, 1, 1}, {0.25f});
  const Tensor c0 = Tensor::fromFloats({1, 1, 1}, {-0.75f});
  const Tensor p = Tensor::fromFloats({1, 3}, {0.9f, -0.3f, 0.2f});
  std::vector<Tensor> out = runOpOutputs(OpKind::LSTM, {x, w, r, b, h0, c0, p}, {{"hidden_size", int64_t{1}}}, 3);

  const float h = 0.25f, c = -0.75f, xv = 0.5f;
  const float i = sigmoid(0.1f * xv - 0.5f * h + 0.01f + 0.05f + 0.9f * c);
  const float f = sigmoid(0.3f * xv + 0.7f * h + 0.03f + 0.07f + 0.2f * c);
  const float g = std::tanh(0.4f * xv - 0.8f * h + 0.04f + 0.08f);
  const float cNext = f * c + i * g;
  const float o = sigmoid(0.2f * xv + 0.6f * h + 0.02f + 0.06f - 0.3f * cNext);
  const float hNext = o * std::tanh(cNext);
  EXPECT_EQ(out[0].shape(), (Shape{1, 1, 1, 1}));
  EXPECT_TRUE(allClose(out[0], {hNext}));
  EXPECT_TRUE(allClose(out[1], {hNext}));
  EXPECT_TRUE(allClose(out[2], {cNext}));
}

struct LstmOperands {
  Tensor w, r, b, p;
};

LstmOperands operands(int64_t dirs, int64_t hidden, int64_t size, uint32_t seed) {
  return {testTensor({dirs, 4 * hidden, size}, seed), testTensor({dirs, 4 * hidden, hidden}, seed + 1),
          testTensor({dirs, 8 * hidden}, seed + 2), testTensor({dirs, 3 * hidden}, seed + 3)};
}

// Rows of a [n, rest...] tensor in reverse order.
Tensor reversedFirstAxis(const Tensor& t) {
  const int64_t n = t.shape()[0], row = t.numel() / n;
  std::vector<float> values(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < row; ++j) values[static_cast<size_t>(i * row + j)] = t.floatAt((n - 1 - i) * row + j);
  return Tensor::fromFloats(t.shape(), values);
}

// The [D, rest...] slice d of a tensor, as [1, rest...].
Tensor direction(const Tensor& t, int64_t d) {
  const int64_t row = t.numel() / t.shape()[0];
  Shape shape = t.shape();
  shape[0] = 1;
  const std::vector<float> all = valuesOf(t);
  std::vector<float> values(all.begin() + d * row, all.begin() + (d + 1) * row);
  return Tensor::fromFloats(shape, values);
}

TEST(Lstm, ReverseIsForwardOnTheReversedSequence) {
  const int64_t seq = 4, batch = 2, size = 3, hidden = 5;
  const LstmOperands ops = operands(1, hidden, size, 10);
  const Tensor x = testTensor({seq, batch, size}, 1), h0 = testTensor({1, batch, hidden}, 2), c0 = testTensor({1, batch, hidden}, 3);
  std::vector<Tensor> reverse =
      runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, h0, c0, ops.p}, {{"hidden_size", hidden}, {"direction", std::string("reverse")}}, 3);
  std::vector<Tensor> forward = runOpOutputs(OpKind::LSTM, {reversedFirstAxis(x), ops.w, ops.r, ops.b, h0, c0, ops.p}, {{"hidden_size", hidden}}, 3);
  EXPECT_TRUE(allClose(reverse[0], valuesOf(reversedFirstAxis(forward[0]))));
  EXPECT_TRUE(allClose(reverse[1], valuesOf(forward[1])));
  EXPECT_TRUE(allClose(reverse[2], valuesOf(forward[2])));
}

TEST(Lstm, BidirectionalRunsBothDirectionsWithTheirOwnWeights) {
  const int64_t seq = 3, batch = 2, size = 4, hidden = 3;
  const LstmOperands ops = operands(2, hidden, size, 20);
  const Tensor x = testTensor({seq, batch, size}, 4), h0 = testTensor({2, batch, hidden}, 5), c0 = testTensor({2, batch, hidden}, 6);
  std::vector<Tensor> both =
      runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, h0, c0, ops.p}, {{"hidden_size", hidden}, {"direction", std::string("bidirectional")}}, 3);
  ASSERT_EQ(both[0].shape(), (Shape{seq, 2, batch, hidden}));
  for (int64_t d = 0; d < 2; ++d) {
    Attributes attrs{{"hidden_size", hidden}, {"direction", std::string(d == 0 ? "forward" : "reverse")}};
    std::vector<Tensor> one = runOpOutputs(OpKind::LSTM,
                                           {x, direction(ops.w, d), direction(ops.r, d), direction(ops.b, d), direction(h0, d), direction(c0, d), direction(ops.p, d)},
                                           attrs, 3);
    for (int64_t t = 0; t < seq; ++t)
      for (int64_t k = 0; k < batch * hidden; ++k)
        EXPECT_NEAR(both[0].floatAt((t * 2 + d) * batch * hidden + k), one[0].floatAt(t * batch * hidden + k), 1e-6);
    EXPECT_TRUE(allClose(direction(both[1], d), valuesOf(one[1])));
    EXPECT_TRUE(allClose(direction(both[2], d), valuesOf(one[2])));
  }
}

TEST(Lstm, BatchFirstLayoutIsTheTransposedSequenceFirstOne) {
  const int64_t seq = 3, batch = 2, size = 2, hidden = 4;
  const LstmOperands ops = operands(1, hidden, size, 30);
  const Tensor x = testTensor({seq, batch, size}, 7);
  const Tensor zeros = Tensor::zeros({DType::Float32, {1, batch, hidden}});
  std::vector<Tensor> seqFirst = runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, zeros, zeros, ops.p}, {{"hidden_size", hidden}}, 3);
  std::vector<float> transposed;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < seq; ++t)
      for (int64_t k = 0; k < size; ++k) transposed.push_back(x.floatAt((t * batch + b) * size + k));
  const Tensor batchZeros = Tensor::zeros({DType::Float32, {batch, 1, hidden}});
  std::vector<Tensor> batchFirst = runOpOutputs(OpKind::LSTM, {Tensor::fromFloats({batch, seq, size}, transposed), ops.w, ops.r, ops.b, batchZeros, batchZeros, ops.p},
                                                {{"hidden_size", hidden}, {"layout", int64_t{1}}}, 3);
  ASSERT_EQ(batchFirst[0].shape(), (Shape{batch, seq, 1, hidden}));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < seq; ++t)
      for (int64_t k = 0; k < hidden; ++k)
        EXPECT_NEAR(batchFirst[0].floatAt((b * seq + t) * hidden + k), seqFirst[0].floatAt((t * batch + b) * hidden + k), 1e-6);
  EXPECT_TRUE(allClose(batchFirst[1], valuesOf(seqFirst[1]))); // [B, 1, H] and [1, B, H] hold the same order
}

TEST(Lstm, EachBatchRowRunsForItsOwnSequenceLength) {
  const int64_t seq = 3, batch = 2, size = 2, hidden = 3;
  const LstmOperands ops = operands(1, hidden, size, 50);
  const Tensor x = testTensor({seq, batch, size}, 9);
  const Tensor lengths = Tensor::fromInts({DType::Int32, {batch}}, {3, 1});
  for (const char* way : {"forward", "reverse"}) {
    SCOPED_TRACE(way);
    const Attributes attrs{{"hidden_size", hidden}, {"direction", std::string(way)}};
    const Tensor zeros = Tensor::zeros({DType::Float32, {1, batch, hidden}});
    std::vector<Tensor> both = runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, zeros, zeros, ops.p, lengths}, attrs, 3);
    for (int64_t b = 0; b < batch; ++b) {
      // Row b alone, on its first lengths[b] steps.
      const int64_t length = lengths.intAt(b);
      std::vector<float> row;
      for (int64_t t = 0; t < length; ++t)
        for (int64_t k = 0; k < size; ++k) row.push_back(x.floatAt((t * batch + b) * size + k));
      const Tensor one = Tensor::zeros({DType::Float32, {1, 1, hidden}});
      std::vector<Tensor> alone =
          runOpOutputs(OpKind::LSTM, {Tensor::fromFloats({length, 1, size}, row), ops.w, ops.r, ops.b, one, one, ops.p}, attrs, 3);
      for (int64_t t = 0; t < seq; ++t)
        for (int64_t k = 0; k < hidden; ++k)
          EXPECT_NEAR(both[0].floatAt((t * batch + b) * hidden + k), t < length ? alone[0].floatAt(t * hidden + k) : 0.0f, 1e-6);
      for (int64_t k = 0; k < hidden; ++k) {
        EXPECT_NEAR(both[1].floatAt(b * hidden + k), alone[1].floatAt(k), 1e-6);
        EXPECT_NEAR(both[2].floatAt(b * hidden + k), alone[2].floatAt(k), 1e-6);
      }
    }
  }
  const Tensor zeros = Tensor::zeros({DType::Float32, {1, batch, hidden}});
  EXPECT_NE(errorOf([&] {
              runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, zeros, zeros, ops.p, Tensor::fromInts({DType::Int32, {batch}}, {4, 1})},
                           {{"hidden_size", hidden}}, 3);
            }).find("sequence_lens[0] is 4, outside [1, 3]"),
            std::string::npos);
}

TEST(Lstm, OperandsOfTheWrongShapeAreRefused) {
  const LstmOperands ops = operands(1, 2, 3, 40);
  const Tensor x = testTensor({2, 1, 3}, 8), state = Tensor::zeros({DType::Float32, {1, 1, 2}});
  EXPECT_NE(errorOf([&] { runOpOutputs(OpKind::LSTM, {x, ops.r, ops.r, ops.b, state, state, ops.p}, {{"hidden_size", int64_t{2}}}, 3); })
                .find("LSTM W must be [1,8,3]"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, state, state, ops.p}, {{"hidden_size", int64_t{3}}}, 3); }).find("LSTM W"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              runOpOutputs(OpKind::LSTM, {x, ops.w, ops.r, ops.b, state, state, ops.p}, {{"hidden_size", int64_t{2}}, {"direction", std::string("sideways")}}, 3);
            }).find("direction"),
            std::string::npos);
}

} // namespace
} // namespace tessera
