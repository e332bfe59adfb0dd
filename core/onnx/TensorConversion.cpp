#include "onnx/TensorConversion.h"

#include "onnx/ImportLimits.h"
#include "support/Error.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>

namespace tessera::onnx_io {

using onnx::TensorProto;

std::optional<DType> dtypeFromOnnx(int32_t elemType) {
  switch (elemType) {
  case TensorProto::FLOAT: return DType::Float32;
  case TensorProto::FLOAT16: return DType::Float16;
  case TensorProto::BFLOAT16: return DType::BFloat16;
  case TensorProto::DOUBLE: return DType::Float64;
  case TensorProto::INT8: return DType::Int8;
  case TensorProto::UINT8: return DType::UInt8;
  case TensorProto::INT32: return DType::Int32;
  case TensorProto::INT64: return DType::Int64;
  case TensorProto::BOOL: return DType::Bool;
  case TensorProto::STRING: return DType::String;
  default: return std::nullopt;
  }
}

int32_t dtypeToOnnx(DType type) {
  switch (type) {
  case DType::Float32: return TensorProto::FLOAT;
  case DType::Float16: return TensorProto::FLOAT16;
  case DType::BFloat16: return TensorProto::BFLOAT16;
  case DType::Float64: return TensorProto::DOUBLE;
  case DType::Int8: return TensorProto::INT8;
  case DType::UInt8: return TensorProto::UINT8;
  case DType::Int32: return TensorProto::INT32;
  case DType::Int64: return TensorProto::INT64;
  case DType::Bool: return TensorProto::BOOL;
  case DType::String: return TensorProto::STRING;
  case DType::Undefined: return TensorProto::UNDEFINED;
  }
  return TensorProto::UNDEFINED;
}

std::string onnxTypeName(int32_t elemType) {
  if (TensorProto::DataType_IsValid(elemType)) return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(elemType));
  return "type " + std::to_string(elemType);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24); // zero or subnormal
    return sign ? -magnitude : magnitude;
  }
  uint32_t out = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13)) : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  return std::bit_cast<float>(out);
}

uint16_t floatToHalf(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t mantissa = x & 0x7fffffu;
  int32_t exponent = static_cast<int32_t>((x >> 23) & 0xffu);
  if (exponent == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  int32_t halfExponent = exponent - 127 + 15;
  if (halfExponent >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (halfExponent <= 0) {
    if (halfExponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - halfExponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(halfExponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float bfloat16ToFloat(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

uint16_t floatToBfloat16(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  uint32_t roundingBias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + roundingBias) >> 16);
}

namespace {

uint64_t readLittleEndian(const char* bytes, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return value;
}

void appendLittleEndian(std::string& out, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
}

// An integer element of the given type from its bit pattern, sign-extended where signed.
int64_t integerFromBits(DType type, uint64_t bits) {
  switch (type) {
  case DType::Int8: return static_cast<int8_t>(static_cast<uint8_t>(bits));
  case DType::UInt8: return static_cast<uint8_t>(bits);
  case DType::Int32: return static_cast<int32_t>(static_cast<uint32_t>(bits));
  case DType::Bool: return (bits & 0xffu) != 0 ? 1 : 0;
  default: return static_cast<int64_t>(bits);
  }
}

float floatFromBits(DType type, uint64_t bits) {
  switch (type) {
  case DType::Float16: return halfToFloat(static_cast<uint16_t>(bits));
  case DType::BFloat16: return bfloat16ToFloat(static_cast<uint16_t>(bits));
  case DType::Float64: return static_cast<float>(std::bit_cast<double>(bits));
  default: return std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
}

void expectCount(int64_t count, int64_t numel, const std::string& what, const char* field) {
  if (count != numel)
    throw Error(what + " has " + std::to_string(count) + " values in " + field + " but its shape needs " + std::to_string(numel));
}

} // namespace

int64_t narrowInteger(DType type, int64_t value) {
  if (type == DType::Bool) return value != 0 ? 1 : 0;
  return integerFromBits(type, static_cast<uint64_t>(value));
}

Tensor tensorFromProto(const TensorProto& proto, const std::string& what) {
  if (proto.data_location() == TensorProto::EXTERNAL || proto.external_data_size() > 0)
    throw Error(what + " keeps its data in an external file, which Tessera does not read");
  if (proto.has_segment()) throw Error(what + " is segmented, which Tessera does not support");
  std::optional<DType> dtype = dtypeFromOnnx(proto.data_type());
  if (!dtype || *dtype == DType::String)
    throw Error(what + " has element type " + onnxTypeName(proto.data_type()) + ", which Tessera does not support");
  Shape shape(proto.dims().begin(), proto.dims().end());
  int64_t numel = checkedNumel(shape, what);
  TensorType type{*dtype, shape};
  bool floats = isFloatingPoint(*dtype);

  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    size_t width = dtypeByteSize(*dtype);
    if (raw.size() != static_cast<size_t>(numel) * width)
      throw Error(what + " has " + std::to_string(raw.size()) + " bytes of raw_data but its shape needs " +
                  std::to_string(static_cast<size_t>(numel) * width));
    if (floats) {
      Tensor tensor = Tensor::zeros(type);
      auto out = tensor.mutableFloats();
      for (int64_t i = 0; i < numel; ++i) out[i] = floatFromBits(*dtype, readLittleEndian(raw.data() + i * width, width));
      return tensor;
    }
    std::vector<int64_t> values(static_cast<size_t>(numel));
    for (int64_t i = 0; i < numel; ++i) values[i] = integerFromBits(*dtype, readLittleEndian(raw.data() + i * width, width));
    return Tensor::fromInts(type, std::move(values));
  }

  switch (*dtype) {
  case DType::Float32: {
    expectCount(proto.float_data_size(), numel, what, "float_data");
    Tensor tensor = Tensor::zeros(type);
    std::copy(proto.float_data().begin(), proto.float_data().end(), tensor.mutableFloats().begin());
    return tensor;
  }
  case DType::Float64: {
    expectCount(proto.double_data_size(), numel, what, "double_data");
    Tensor tensor = Tensor::zeros(type);
    auto out = tensor.mutableFloats();
    for (int64_t i = 0; i < numel; ++i) out[i] = static_cast<float>(proto.double_data(static_cast<int>(i)));
    return tensor;
  }
  case DType::Float16:
  case DType::BFloat16: {
    // Half-width floats travel as bit patterns in int32_data.
    expectCount(proto.int32_data_size(), numel, what, "int32_data");
    Tensor tensor = Tensor::zeros(type);
    auto out = tensor.mutableFloats();
    for (int64_t i = 0; i < numel; ++i)
      out[i] = floatFromBits(*dtype, static_cast<uint16_t>(static_cast<uint32_t>(proto.int32_data(static_cast<int>(i)))));
    return tensor;
  }
  case DType::Int64: {
    expectCount(proto.int64_data_size(), numel, what, "int64_data");
    return Tensor::fromInts(type, std::vector<int64_t>(proto.int64_data().begin(), proto.int64_data().end()));
  }
  case DType::Int8:
  case DType::UInt8:
  case DType::Int32:
  case DType::Bool: {
    expectCount(proto.int32_data_size(), numel, what, "int32_data");
    std::vector<int64_t> values(static_cast<size_t>(numel));
    for (int64_t i = 0; i < numel; ++i) values[i] = narrowInteger(*dtype, proto.int32_data(static_cast<int>(i)));
    return Tensor::fromInts(type, std::move(values));
  }
  case DType::String:
  case DType::Undefined: break;
  }
  throw Error(what + " has element type " + onnxTypeName(proto.data_type()) + ", which Tessera does not support");
}

void tensorToProto(const Tensor& tensor, const std::string& name, TensorProto* proto) {
  assert(tensor.dtype() != DType::String && tensor.dtype() != DType::Undefined && "only numeric tensors are written");
  proto->Clear();
  proto->set_name(name);
  proto->set_data_type(dtypeToOnnx(tensor.dtype()));
  for (int64_t d : tensor.shape()) proto->add_dims(d);
  size_t width = dtypeByteSize(tensor.dtype());
  int64_t numel = tensor.numel();
  std::string raw;
  raw.reserve(static_cast<size_t>(numel) * width);
  for (int64_t i = 0; i < numel; ++i) {
    switch (tensor.dtype()) {
    case DType::Float32: appendLittleEndian(raw, std::bit_cast<uint32_t>(tensor.floatAt(i)), 4); break;
    case DType::Float16: appendLittleEndian(raw, floatToHalf(tensor.floatAt(i)), 2); break;
    case DType::BFloat16: appendLittleEndian(raw, floatToBfloat16(tensor.floatAt(i)), 2); break;
    case DType::Float64: appendLittleEndian(raw, std::bit_cast<uint64_t>(static_cast<double>(tensor.floatAt(i))), 8); break;
    case DType::Bool: appendLittleEndian(raw, tensor.intAt(i) != 0 ? 1 : 0, 1); break;
    default: appendLittleEndian(raw, static_cast<uint64_t>(tensor.intAt(i)), width); break;
    }
  }
  proto->set_raw_data(std::move(raw));
}

std::optional<DeclaredType> declaredTensorType(const onnx::TypeProto& type) {
  if (!type.has_tensor_type()) return std::nullopt;
  const auto& tensorType = type.tensor_type();
  DeclaredType declared;
  declared.elemType = tensorType.elem_type();
  declared.hasShape = tensorType.has_shape();
  for (const auto& dim : tensorType.shape().dim())
    declared.dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
  return declared;
}

bool agrees(const TensorType& actual, const DeclaredType& declared) {
  if (declared.elemType != 0 && declared.elemType != dtypeToOnnx(actual.dtype)) return false;
  if (!declared.hasShape) return true;
  if (declared.dims.size() != actual.shape.size()) return false;
  for (size_t i = 0; i < declared.dims.size(); ++i)
    if (declared.dims[i] >= 0 && declared.dims[i] != actual.shape[i]) return false;
  return true;
}

std::string describe(const DeclaredType& declared) {
  std::string s = declared.elemType == 0 ? std::string("?") : onnxTypeName(declared.elemType);
  if (!declared.hasShape) return s + "[unknown rank]";
  s += "[";
  for (size_t i = 0; i < declared.dims.size(); ++i) {
    if (i) s += ",";
    s += declared.dims[i] >= 0 ? std::to_string(declared.dims[i]) : "?";
  }
  return s + "]";
}

void setTensorType(const TensorType& type, onnx::TypeProto* proto) {
  auto* tensorType = proto->mutable_tensor_type();
  tensorType->set_elem_type(dtypeToOnnx(type.dtype));
  auto* shape = tensorType->mutable_shape();
  shape->clear_dim();
  for (int64_t d : type.shape) shape->add_dim()->set_dim_value(d);
}

} // namespace tessera::onnx_io
