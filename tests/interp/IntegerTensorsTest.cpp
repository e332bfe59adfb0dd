// Integer and Bool tensors through the interpreter: arithmetic wraps into the element type,
// comparisons give Bool, Where selects, Cast truncates and rounds, layout ops move int64 values
// exactly (beyond float's 24 bits), and kernels refuse the storage they do not read.
#include "InterpTestSupport.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <limits>

namespace tessera {
namespace {

using testing::runOp;
using testing::valuesOf;

Tensor ints(DType type, Shape shape, std::vector<int64_t> values) { return Tensor::fromInts({type, std::move(shape)}, std::move(values)); }
std::vector<int64_t> intsOf(const Tensor& t) { return {t.ints().begin(), t.ints().end()}; }

TEST(IntegerTensorsTest, ArithmeticWrapsIntoTheElementTypeAndDividesTowardZero) {
  Tensor a = ints(DType::Int32, {3}, {std::numeric_limits<int32_t>::max(), -7, 7});
  Tensor b = ints(DType::Int32, {3}, {1, 2, -2});
  EXPECT_EQ(intsOf(runOp(OpKind::Add, {a, b})), (std::vector<int64_t>{std::numeric_limits<int32_t>::min(), -5, 5}));
  EXPECT_EQ(intsOf(runOp(OpKind::Div, {a, b})), (std::vector<int64_t>{std::numeric_limits<int32_t>::max(), -3, -3}));
  // Mod takes the divisor's sign (Python's %) unless fmod=1 (C's).
  EXPECT_EQ(intsOf(runOp(OpKind::Mod, {a, b})), (std::vector<int64_t>{0, 1, -1}));
  EXPECT_EQ(intsOf(runOp(OpKind::Mod, {a, b}, {{"fmod", int64_t{1}}})), (std::vector<int64_t>{0, -1, 1}));
  EXPECT_EQ(intsOf(runOp(OpKind::Mul, {ints(DType::UInt8, {2}, {200, 3}), ints(DType::UInt8, {2}, {2, 3})})), (std::vector<int64_t>{144, 9}));
  EXPECT_THROW(runOp(OpKind::Div, {a, ints(DType::Int32, {3}, {1, 0, 1})}), Error);
  // Operands of different element types do not fit one op.
  EXPECT_THROW(runOp(OpKind::Add, {a, Tensor::fromFloats({3}, {1, 2, 3})}), Error);
}

TEST(IntegerTensorsTest, ComparisonsGiveBoolAndWhereSelects) {
  Tensor x = Tensor::fromFloats({2, 2}, {1, 5, -2, 3});
  Tensor three = Tensor::fromFloats({}, {3});
  Tensor less = runOp(OpKind::Less, {x, three});
  EXPECT_EQ(less.dtype(), DType::Bool);
  EXPECT_EQ(intsOf(less), (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(intsOf(runOp(OpKind::Equal, {ints(DType::Int64, {3}, {1, 2, 3}), ints(DType::Int64, {1}, {2})})), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(intsOf(runOp(OpKind::Not, {less})), (std::vector<int64_t>{0, 1, 0, 1}));
  Tensor picked = runOp(OpKind::Where, {less, x, Tensor::fromFloats({1, 2}, {10, 20})});
  EXPECT_EQ(valuesOf(picked), (std::vector<float>{1, 20, -2, 20}));
  EXPECT_EQ(intsOf(runOp(OpKind::Xor, {less, ints(DType::Bool, {2}, {1, 1})})), (std::vector<int64_t>{0, 1, 0, 1}));
  // A float where Bool belongs is refused, naming the op.
  try {
    runOp(OpKind::And, {x, x});
    FAIL() << "And on floats must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("And"), std::string::npos) << e.what();
  }
}

// A causal mask as GPT-2 applies it: the condition broadcast over batch and heads, the scores
// full, the fill a scalar; and a condition broadcast along the last axis, its values per row.
TEST(IntegerTensorsTest, WhereBroadcastsEachOperandAlongItsOwnAxes) {
  std::vector<int64_t> causal;
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column) causal.push_back(column <= row);
  std::vector<float> scores(2 * 3 * 3);
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<float>(i);
  const Tensor masked = runOp(OpKind::Where, {ints(DType::Bool, {1, 3, 3}, causal), Tensor::fromFloats({2, 3, 3}, scores),
                                              Tensor::fromFloats({}, {-1})});
  std::vector<float> expected;
  for (size_t i = 0; i < scores.size(); ++i) expected.push_back(causal[i % 9] ? scores[i] : -1.0f);
  EXPECT_EQ(valuesOf(masked), expected);

  const Tensor rows = runOp(OpKind::Where, {ints(DType::Bool, {2, 1}, {0, 1}), Tensor::fromFloats({3}, {1, 2, 3}),
                                            Tensor::fromFloats({2, 3}, {-1, -2, -3, -4, -5, -6})});
  EXPECT_EQ(valuesOf(rows), (std::vector<float>{-1, -2, -3, 1, 2, 3}));
}

TEST(IntegerTensorsTest, CastTruncatesTowardZeroAndRoundsIntoHalf) {
  Tensor x = Tensor::fromFloats({4}, {2.7f, -2.7f, 0.0f, 300.0f});
  EXPECT_EQ(intsOf(runOp(OpKind::Cast, {x}, {{"to", std::string("i64")}})), (std::vector<int64_t>{2, -2, 0, 300}));
  EXPECT_EQ(intsOf(runOp(OpKind::Cast, {x}, {{"to", std::string("u8")}})), (std::vector<int64_t>{2, 254, 0, 44}));
  EXPECT_EQ(intsOf(runOp(OpKind::Cast, {x}, {{"to", std::string("bool")}})), (std::vector<int64_t>{1, 1, 0, 1}));
  Tensor half = runOp(OpKind::Cast, {Tensor::fromFloats({2}, {1.0f + 1.0f / 4096.0f, 70000.0f})}, {{"to", std::string("f16")}});
  EXPECT_EQ(half.dtype(), DType::Float16);
  EXPECT_EQ(half.floatAt(0), 1.0f) << "float16 keeps 11 significant bits";
  EXPECT_TRUE(std::isinf(half.floatAt(1)));
  EXPECT_EQ(valuesOf(runOp(OpKind::Cast, {ints(DType::Int64, {2}, {-3, 7})}, {{"to", std::string("f32")}})), (std::vector<float>{-3, 7}));
  EXPECT_THROW(runOp(OpKind::Cast, {x}, {{"to", std::string("string")}}), Error);
}

TEST(IntegerTensorsTest, LayoutOpsMoveInt64ValuesExactly) {
  const int64_t big = (int64_t{1} << 40) + 1; // not representable in float
  Tensor data = ints(DType::Int64, {2, 3}, {big, 1, 2, 3, 4, -big});
  EXPECT_EQ(intsOf(runOp(OpKind::Transpose, {data}, {{"perm", Shape{1, 0}}})), (std::vector<int64_t>{big, 3, 1, 4, 2, -big}));
  EXPECT_EQ(intsOf(runOp(OpKind::Gather, {data, ints(DType::Int64, {1}, {1})})), (std::vector<int64_t>{3, 4, -big}));
  EXPECT_EQ(intsOf(runOp(OpKind::Concat, {data, data}, {{"axis", int64_t{1}}})),
            (std::vector<int64_t>{big, 1, 2, big, 1, 2, 3, 4, -big, 3, 4, -big}));
  EXPECT_EQ(intsOf(runOp(OpKind::Expand, {ints(DType::Int64, {2, 1}, {big, 5})}, {{"shape", Shape{2, 2}}})),
            (std::vector<int64_t>{big, big, 5, 5}));
  EXPECT_EQ(intsOf(runOp(OpKind::Slice, {data}, {{"starts", Shape{0, 2}}, {"ends", Shape{2, 3}}})), (std::vector<int64_t>{2, -big}));
  EXPECT_EQ(intsOf(runOp(OpKind::ReduceSum, {data}, {{"axes", Shape{0}}, {"keepdims", int64_t{0}}})), (std::vector<int64_t>{big + 3, 5, 2 - big}));
  Tensor argmax = runOp(OpKind::ArgMax, {data}, {{"axis", int64_t{1}}});
  EXPECT_EQ(argmax.shape(), (Shape{2, 1}));
  EXPECT_EQ(intsOf(argmax), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(intsOf(runOp(OpKind::CumSum, {ints(DType::Int32, {4}, {1, 2, 3, 4})}, {{"axis", int64_t{0}}, {"exclusive", int64_t{1}}})),
            (std::vector<int64_t>{0, 1, 3, 6}));
}

} // namespace
} // namespace tessera
