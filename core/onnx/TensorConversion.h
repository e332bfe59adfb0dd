// Conversions between ONNX protobuf values and Tessera's: element types, TensorProto <-> Tensor,
// and tensor TypeProtos. Internal to core/onnx (it includes the onnx headers).
#pragma once

#include "ir/Tensor.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::onnx_io {

// Tessera's element type for an ONNX TensorProto::DataType, or nullopt for types Tessera does
// not carry (UINT16, INT16, UINT32, UINT64, complex, float8, ...).
std::optional<DType> dtypeFromOnnx(int32_t elemType);
int32_t dtypeToOnnx(DType type);
std::string onnxTypeName(int32_t elemType); // "FLOAT", "UINT16", or "type 42"

// A Tensor holding the proto's values (raw_data or the typed field). `what` names the tensor in
// error messages, e.g. "initializer 'conv1_w'". Throws tessera::Error for unsupported element
// types, external or segmented data, or a value count that does not match the dims.
Tensor tensorFromProto(const onnx::TensorProto& proto, const std::string& what);
// Writes dims, type and values (as little-endian raw_data); a splat is expanded.
void tensorToProto(const Tensor& tensor, const std::string& name, onnx::TensorProto* proto);

// The type a ValueInfoProto declares for a tensor. Unknown or symbolic dims are -1.
struct DeclaredType {
  int32_t elemType = 0; // 0: not declared
  bool hasShape = false;
  std::vector<int64_t> dims;
};
// nullopt when the TypeProto does not describe a tensor (sequence, map, optional, or absent).
std::optional<DeclaredType> declaredTensorType(const onnx::TypeProto& type);
// Whether a fully known type agrees with a (possibly partial) declaration.
bool agrees(const TensorType& actual, const DeclaredType& declared);
std::string describe(const DeclaredType& declared); // "FLOAT[1,?,224,224]"

void setTensorType(const TensorType& type, onnx::TypeProto* proto);

// An integer stored into an element of `type` (wraps for Int8/UInt8/Int32, 0/1 for Bool).
int64_t narrowInteger(DType type, int64_t value);

// IEEE half and bfloat16 conversions (round to nearest even).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBfloat16(float value);

} // namespace tessera::onnx_io
