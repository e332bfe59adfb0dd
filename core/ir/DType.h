// Element types of tensors. Tessera computes in float32; other types are carried for shapes,
// indices and opaque ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessera {

enum class DType : uint8_t { Undefined, Float32, Float16, BFloat16, Float64, Int8, UInt8, Int32, Int64, Bool, String };

std::string_view dtypeName(DType type);
// The type dtypeName() names ("f32", "i64", "bool", ...), or Undefined.
DType dtypeFromName(std::string_view name);
bool isFloatingPoint(DType type);
bool isInteger(DType type); // includes Bool: stored as integers
// Bytes per element in memory and in ONNX raw data; 0 for String and Undefined.
size_t dtypeByteSize(DType type);

} // namespace tessera
