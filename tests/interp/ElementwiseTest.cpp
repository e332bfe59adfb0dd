// Unary activations, broadcasting binary ops, variadic Sum and smul against hand values and a
// naive broadcasting loop written here.
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tessera {
namespace {

using testing::allClose;
using testing::runOp;
using testing::testTensor;
using testing::valuesOf;

TEST(UnaryTest, HandValues) {
  Tensor x = Tensor::fromFloats({5}, {-2, -0.5, 0, 0.5, 2});
  EXPECT_EQ(valuesOf(runOp(OpKind::Relu, {x})), (std::vector<float>{0, 0, 0, 0.5, 2}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Neg, {x})), (std::vector<float>{2, 0.5, -0, -0.5, -2}));
  EXPECT_TRUE(allClose(runOp(OpKind::Sigmoid, {x}), {0.11920292f, 0.37754067f, 0.5f, 0.62245933f, 0.88079708f}, 1e-6));
  EXPECT_TRUE(allClose(runOp(OpKind::Tanh, {x}), {-0.96402758f, -0.46211716f, 0, 0.46211716f, 0.96402758f}, 1e-6));
  EXPECT_TRUE(allClose(runOp(OpKind::Erf, {x}), {-0.99532227f, -0.52049988f, 0, 0.52049988f, 0.99532227f}, 1e-6));
  EXPECT_TRUE(allClose(runOp(OpKind::Exp, {x}), {0.13533528f, 0.60653066f, 1, 1.64872127f, 7.3890561f}, 1e-6));
  // Gelu exact: x * Phi(x); tanh approximation differs slightly.
  EXPECT_TRUE(allClose(runOp(OpKind::Gelu, {x}), {-0.04550026f, -0.15426877f, 0, 0.34573123f, 1.95449974f}, 1e-5));
  EXPECT_TRUE(allClose(runOp(OpKind::Gelu, {x}, {{"approximate", std::string("tanh")}}),
                       {-0.04540231f, -0.15428599f, 0, 0.34571401f, 1.95459769f}, 1e-5));
  Tensor positive = Tensor::fromFloats({3}, {0, 4, 2.25});
  EXPECT_EQ(valuesOf(runOp(OpKind::Sqrt, {positive})), (std::vector<float>{0, 2, 1.5}));
  EXPECT_TRUE(std::isnan(runOp(OpKind::Sqrt, {Tensor::fromFloats({1}, {-1})}).floatAt(0)));
}

TEST(UnaryTest, ClipBoundsAndDefaults) {
  Tensor x = Tensor::fromFloats({5}, {-2, -0.5, 0, 0.5, 2});
  EXPECT_EQ(valuesOf(runOp(OpKind::Clip, {x}, {{"min", -1.0f}, {"max", 1.0f}})), (std::vector<float>{-1, -0.5, 0, 0.5, 1}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Clip, {x}, {{"min", 0.0f}})), (std::vector<float>{0, 0, 0, 0.5, 2}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Clip, {x})), valuesOf(x));
  // min > max: ONNX applies min then max, so everything becomes max.
  EXPECT_EQ(valuesOf(runOp(OpKind::Clip, {x}, {{"min", 1.0f}, {"max", -1.0f}})), (std::vector<float>(5, -1)));
}

TEST(UnaryTest, DropoutAndIdentityPassValuesThrough) {
  Tensor x = testTensor({2, 3}, 1);
  EXPECT_EQ(valuesOf(runOp(OpKind::Dropout, {x}, {{"ratio", 0.5f}})), valuesOf(x));
  EXPECT_EQ(valuesOf(runOp(OpKind::Identity, {x})), valuesOf(x));
}

// out[i] = op(a[broadcast i], b[broadcast i]), by explicit coordinates.
template <class Op>
std::vector<float> naiveBroadcast(const Tensor& a, const Tensor& b, const Shape& out, Op op) {
  auto index = [&](const Shape& s, const std::vector<int64_t>& coordinate) {
    int64_t flat = 0;
    const size_t offset = out.size() - s.size();
    for (size_t d = 0; d < s.size(); ++d) flat = flat * s[d] + (s[d] == 1 ? 0 : coordinate[offset + d]);
    return flat;
  };
  std::vector<float> values;
  std::vector<int64_t> coordinate(out.size(), 0);
  for (int64_t i = 0; i < numelOf(out); ++i) {
    int64_t rest = i;
    for (size_t d = out.size(); d-- > 0;) {
      coordinate[d] = rest % out[d];
      rest /= out[d];
    }
    values.push_back(op(a.floatAt(index(a.shape(), coordinate)), b.floatAt(index(b.shape(), coordinate))));
  }
  return values;
}

TEST(BinaryTest, BroadcastingMatchesNaive) {
  struct Case {
    Shape a, b, out;
  };
  const std::vector<Case> cases = {
      {{2, 3}, {2, 3}, {2, 3}},          {{2, 3}, {1}, {2, 3}},          {{1}, {4, 1, 2}, {4, 1, 2}},
      {{3, 1}, {1, 4}, {3, 4}},          {{2, 3, 4}, {4}, {2, 3, 4}},    {{2, 1, 4}, {3, 1}, {2, 3, 4}},
      {{5, 1, 1, 3}, {1, 2, 3}, {5, 1, 2, 3}}, {{}, {2, 2}, {2, 2}},     {{16, 1, 300}, {1, 200, 1}, {16, 200, 300}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    SCOPED_TRACE(shapeToString(c.a) + " op " + shapeToString(c.b));
    Tensor a = testTensor(c.a, seed++, 0.5f, 2.0f), b = testTensor(c.b, seed++, 0.5f, 2.0f);
    auto check = [&](OpKind kind, auto op) {
      Tensor y = runOp(kind, {a, b});
      EXPECT_EQ(y.shape(), c.out);
      EXPECT_TRUE(allClose(y, naiveBroadcast(a, b, c.out, op), 1e-6, 0)) << opName(kind);
    };
    check(OpKind::Add, [](float p, float q) { return p + q; });
    check(OpKind::Sub, [](float p, float q) { return p - q; });
    check(OpKind::Mul, [](float p, float q) { return p * q; });
    check(OpKind::Div, [](float p, float q) { return p / q; });
    check(OpKind::Pow, [](float p, float q) { return std::pow(p, q); });
  }
}

TEST(BinaryTest, HandValues) {
  Tensor a = Tensor::fromFloats({2, 2}, {1, 2, 3, 4});
  Tensor column = Tensor::fromFloats({2, 1}, {10, 20});
  EXPECT_EQ(valuesOf(runOp(OpKind::Sub, {a, column})), (std::vector<float>{-9, -8, -17, -16}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Div, {column, a})), (std::vector<float>{10, 5, 20.0f / 3, 5}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Pow, {a, Tensor::fromFloats({}, {2})})), (std::vector<float>{1, 4, 9, 16}));
  EXPECT_EQ(runOp(OpKind::Div, {Tensor::fromFloats({1}, {1}), Tensor::fromFloats({1}, {0})}).floatAt(0),
            std::numeric_limits<float>::infinity());
}

TEST(SumTest, VariadicWithBroadcasting) {
  Tensor a = Tensor::fromFloats({2, 2}, {1, 2, 3, 4});
  Tensor row = Tensor::fromFloats({2}, {10, 20});
  Tensor scalar = Tensor::fromFloats({1}, {100});
  EXPECT_EQ(valuesOf(runOp(OpKind::Sum, {a, row, scalar})), (std::vector<float>{111, 122, 113, 124}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Sum, {row})), (std::vector<float>{10, 20}));
  // The output shape can come from an operand other than the first.
  Tensor y = runOp(OpKind::Sum, {scalar, row, a});
  EXPECT_EQ(y.shape(), (Shape{2, 2}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{111, 122, 113, 124}));
}

TEST(ScalarMulTest, MultipliesByTheScalar) {
  Tensor x = Tensor::fromFloats({3}, {1, -2, 3});
  EXPECT_EQ(valuesOf(runOp(OpKind::ScalarMul, {x, Tensor::fromFloats({}, {-1.5})})), (std::vector<float>{-1.5, 3, -4.5}));
}

} // namespace
} // namespace tessera
