// What a TensorProto fuzz input goes through: the reader (input_0.pb / output_0.pb of ONNX's
// backend tests), and a tensor it accepts written back and read again, as the node tests do.
// Shared by fuzz_tensor_proto and tests/onnx's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "onnx/TensorProtoIO.h"
#include "support/Error.h"

#include <string>

namespace tessera::fuzz {

// Reads `path`; the round trip writes `scratch`. Errors must read "PATH: problem".
inline FuzzOutcome checkTensorProtoFile(const std::string& path, const std::string& scratch) {
  FuzzOutcome outcome;
  Tensor tensor;
  std::string name;
  try {
    tensor = onnx_io::readTensorProtoFile(path, &name);
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(path + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
    return outcome;
  }
  outcome.accepted = true;
  try {
    onnx_io::writeTensorProtoFile(tensor, name, scratch);
  } catch (const Error&) {
    return outcome; // string tensors are not written
  }
  try {
    Tensor again = onnx_io::readTensorProtoFile(scratch);
    if (again.type() != tensor.type())
      outcome.defect = "the round trip changed the type: " + tensor.type().toString() + " -> " + again.type().toString();
  } catch (const Error& e) {
    outcome.defect = std::string("a tensor written back does not read again: ") + e.what();
  }
  return outcome;
}

} // namespace tessera::fuzz
