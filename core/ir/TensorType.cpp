#include "ir/TensorType.h"

namespace tessera {

std::string_view dtypeName(DType type) {
  switch (type) {
  case DType::Undefined: return "undefined";
  case DType::Float32: return "f32";
  case DType::Float16: return "f16";
  case DType::BFloat16: return "bf16";
  case DType::Float64: return "f64";
  case DType::Int8: return "i8";
  case DType::UInt8: return "u8";
  case DType::Int32: return "i32";
  case DType::Int64: return "i64";
  case DType::Bool: return "bool";
  case DType::String: return "string";
  }
  return "?";
}

DType dtypeFromName(std::string_view name) {
  for (DType type : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64, DType::Int8, DType::UInt8, DType::Int32,
                     DType::Int64, DType::Bool, DType::String})
    if (dtypeName(type) == name) return type;
  return DType::Undefined;
}

bool isFloatingPoint(DType type) {
  return type == DType::Float32 || type == DType::Float16 || type == DType::BFloat16 || type == DType::Float64;
}

bool isInteger(DType type) {
  return type == DType::Int8 || type == DType::UInt8 || type == DType::Int32 || type == DType::Int64 || type == DType::Bool;
}

size_t dtypeByteSize(DType type) {
  switch (type) {
  case DType::Float32:
  case DType::Int32: return 4;
  case DType::Float16:
  case DType::BFloat16: return 2;
  case DType::Float64:
  case DType::Int64: return 8;
  case DType::Int8:
  case DType::UInt8:
  case DType::Bool: return 1;
  case DType::String:
  case DType::Undefined: return 0;
  }
  return 0;
}

int64_t numelOf(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t TensorType::numel() const { return numelOf(shape); }

std::string shapeToString(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string TensorType::toString() const { return std::string(dtypeName(dtype)) + shapeToString(shape); }

} // namespace tessera
