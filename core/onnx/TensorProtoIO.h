// Single tensors as serialized onnx::TensorProto files (the ONNX backend-test layout: input_0.pb,
// output_0.pb).
#pragma once

#include "ir/Tensor.h"

#include <string>

namespace tessera::onnx_io {

// Throws tessera::Error "<path>: <problem>".
Tensor readTensorProtoFile(const std::string& path, std::string* name = nullptr);
void writeTensorProtoFile(const Tensor& tensor, const std::string& name, const std::string& path);

} // namespace tessera::onnx_io
