// TensorProto files (input_0.pb, output_0.pb): every element type through raw_data and the
// typed fields, the half-precision conversions, and clear errors for bad files.
#include "ModelBuilder.h"

#include "onnx/TensorConversion.h"
#include "onnx/TensorProtoIO.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::test;

namespace {

const std::string kModels = std::string(TESSERA_SHARED_DIR) + "/models/";

Tensor floatsOf(DType type, Shape shape, const std::vector<float>& values) {
  Tensor t = Tensor::zeros({type, std::move(shape)});
  std::copy(values.begin(), values.end(), t.mutableFloats().begin());
  return t;
}

Tensor writeAndRead(const Tensor& tensor, const std::string& file, std::string* name = nullptr) {
  std::string path = writeTempFile(file, "");
  onnx_io::writeTensorProtoFile(tensor, "value", path);
  return onnx_io::readTensorProtoFile(path, name);
}

std::string readError(const std::string& path) {
  try {
    onnx_io::readTensorProtoFile(path);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " was read without error";
  return {};
}

void expectSame(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.type(), b.type());
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_EQ(a.valueAt(i), b.valueAt(i)) << "element " << i;
}

} // namespace

TEST(TensorProtoIO, EveryElementTypeRoundTrips) {
  std::string name;
  expectSame(writeAndRead(Tensor::fromFloats({2, 3}, {0.5f, -1.25f, 3e-20f, 1e30f, -0.0f, 7.0f}), "f32.pb", &name),
             Tensor::fromFloats({2, 3}, {0.5f, -1.25f, 3e-20f, 1e30f, -0.0f, 7.0f}));
  EXPECT_EQ(name, "value");
  // Values exactly representable in the narrower formats.
  expectSame(writeAndRead(floatsOf(DType::Float16, {4}, {1.0f, -2.0f, 65504.0f, 0.000061035156f}), "f16.pb"),
             floatsOf(DType::Float16, {4}, {1.0f, -2.0f, 65504.0f, 0.000061035156f}));
  expectSame(writeAndRead(floatsOf(DType::BFloat16, {3}, {1.0f, -3.0f, std::ldexp(1.0f, 100)}), "bf16.pb"),
             floatsOf(DType::BFloat16, {3}, {1.0f, -3.0f, std::ldexp(1.0f, 100)}));
  expectSame(writeAndRead(floatsOf(DType::Float64, {2}, {0.1f, -5.0f}), "f64.pb"), floatsOf(DType::Float64, {2}, {0.1f, -5.0f}));
  const int64_t big = int64_t(1) << 40;
  expectSame(writeAndRead(Tensor::fromInts({DType::Int64, {3}}, {big, -big, 0}), "i64.pb"), Tensor::fromInts({DType::Int64, {3}}, {big, -big, 0}));
  expectSame(writeAndRead(Tensor::fromInts({DType::Int32, {2}}, {-2147483648LL, 2147483647LL}), "i32.pb"),
             Tensor::fromInts({DType::Int32, {2}}, {-2147483648LL, 2147483647LL}));
  expectSame(writeAndRead(Tensor::fromInts({DType::Int8, {2}}, {-128, 127}), "i8.pb"), Tensor::fromInts({DType::Int8, {2}}, {-128, 127}));
  expectSame(writeAndRead(Tensor::fromInts({DType::UInt8, {2}}, {0, 255}), "u8.pb"), Tensor::fromInts({DType::UInt8, {2}}, {0, 255}));
  expectSame(writeAndRead(Tensor::fromInts({DType::Bool, {3}}, {1, 0, 1}), "bool.pb"), Tensor::fromInts({DType::Bool, {3}}, {1, 0, 1}));
  // A splat is written out in full; a scalar has no dims.
  expectSame(writeAndRead(Tensor::splat({DType::Float32, {2, 2}}, 1.5), "splat.pb"), Tensor::fromFloats({2, 2}, {1.5f, 1.5f, 1.5f, 1.5f}));
  expectSame(writeAndRead(Tensor::fromFloats({}, {4.0f}), "scalar.pb"), Tensor::fromFloats({}, {4.0f}));
}

TEST(TensorProtoIO, ReadsTypedFields) {
  onnx::TensorProto halves;
  halves.set_data_type(TensorProto::FLOAT16);
  halves.add_dims(3);
  for (int bits : {0x3C00, 0xC000, 0x0001}) halves.add_int32_data(bits); // 1, -2, 2^-24
  Tensor h = onnx_io::readTensorProtoFile(writeTempFile("halves.pb", halves.SerializeAsString()));
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_EQ(h.floatAt(0), 1.0f);
  EXPECT_EQ(h.floatAt(1), -2.0f);
  EXPECT_EQ(h.floatAt(2), std::ldexp(1.0f, -24));

  onnx::TensorProto doubles;
  doubles.set_data_type(TensorProto::DOUBLE);
  doubles.add_dims(2);
  doubles.add_double_data(0.25);
  doubles.add_double_data(-8.0);
  Tensor d = onnx_io::readTensorProtoFile(writeTempFile("doubles.pb", doubles.SerializeAsString()));
  EXPECT_EQ(d.floatAt(1), -8.0f);

  onnx::TensorProto bytes;
  bytes.set_data_type(TensorProto::INT8);
  bytes.add_dims(2);
  bytes.add_int32_data(-5);
  bytes.add_int32_data(300); // stored into an int8 it wraps to 44
  Tensor b = onnx_io::readTensorProtoFile(writeTempFile("bytes.pb", bytes.SerializeAsString()));
  EXPECT_EQ(b.intAt(0), -5);
  EXPECT_EQ(b.intAt(1), 44);
}

TEST(TensorProtoIO, HalfConversionsRoundCorrectly) {
  using onnx_io::floatToHalf;
  using onnx_io::halfToFloat;
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF); // below the rounding midpoint
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // rounds to infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00); // tie: to even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
  // Every finite and infinite half survives a trip through float.
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    if ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF)) continue; // NaN payloads
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))), bits) << std::hex << bits;
    ASSERT_EQ(onnx_io::floatToBfloat16(onnx_io::bfloat16ToFloat(static_cast<uint16_t>(bits))), bits) << std::hex << bits;
  }
}

TEST(TensorProtoIO, ReadsTheZooExpectedOutput) {
  std::string name;
  Tensor out = onnx_io::readTensorProtoFile(kModels + "light_squeezenet_output_0.pb", &name);
  EXPECT_EQ(out.shape(), (Shape{1, 1000, 1, 1}));
  double sum = 0;
  for (int64_t i = 0; i < out.numel(); ++i) sum += out.valueAt(i);
  EXPECT_NEAR(sum, 1.0, 1e-4); // a softmax
}

TEST(TensorProtoIO, BadFilesNameTheFile) {
  EXPECT_NE(readError("/nonexistent-dir/input_0.pb").find("input_0.pb: cannot open"), std::string::npos);
  EXPECT_NE(readError(writeTempFile("empty.pb", "")).find("empty.pb: the file is empty"), std::string::npos);
  EXPECT_NE(readError(writeTempFile("garbage.pb", std::string("\xff\xff\xff\xff\x0f\x01", 6))).find("garbage.pb: "), std::string::npos);

  onnx::TensorProto short_;
  short_.set_data_type(TensorProto::FLOAT);
  short_.add_dims(4);
  short_.set_raw_data(std::string(12, '\0'));
  std::string message = readError(writeTempFile("short.pb", short_.SerializeAsString()));
  EXPECT_NE(message.find("short.pb: tensor '' has 12 bytes of raw_data but its shape needs 16"), std::string::npos) << message;

  onnx::TensorProto unsigned16;
  unsigned16.set_data_type(TensorProto::UINT16);
  message = readError(writeTempFile("u16.pb", unsigned16.SerializeAsString()));
  EXPECT_NE(message.find("UINT16"), std::string::npos) << message;

  EXPECT_THROW(onnx_io::writeTensorProtoFile(Tensor::fromFloats({1}, {1.0f}), "x", "/nonexistent-dir/out.pb"), Error);
}
