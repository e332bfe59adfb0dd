#include "onnx/TensorProtoIO.h"

#include "onnx/ImportLimits.h"
#include "onnx/TensorConversion.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessera::onnx_io {

Tensor readTensorProtoFile(const std::string& path, std::string* name) {
  std::string bytes = readFileBytes(path, static_cast<uintmax_t>(kMaxModelBytes));
  if (bytes.empty()) throw errorInFile(path, "the file is empty");

  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(static_cast<int>(kMaxModelBytes));
  onnx::TensorProto proto;
  if (!proto.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    throw errorInFile(path, "not a TensorProto: the protobuf data is malformed or truncated");
  // A parse can succeed on foreign bytes; a tensor always states its element type.
  if (!proto.has_data_type() || proto.data_type() == onnx::TensorProto::UNDEFINED)
    throw errorInFile(path, "not a TensorProto: no element type");
  try {
    Tensor tensor = tensorFromProto(proto, "tensor '" + proto.name() + "'");
    if (name) *name = proto.name();
    return tensor;
  } catch (const Error& e) {
    throw errorInFile(path, e.what());
  }
}

void writeTensorProtoFile(const Tensor& tensor, const std::string& name, const std::string& path) {
  if (tensor.dtype() == DType::String || tensor.dtype() == DType::Undefined)
    throw errorInFile(path, "cannot write a tensor of type " + tensor.type().toString());
  onnx::TensorProto proto;
  tensorToProto(tensor, name, &proto);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, std::string("cannot create: ") + std::strerror(errno));
  if (!proto.SerializeToOstream(&out)) throw errorInFile(path, "cannot write the tensor");
  out.close();
  if (!out) throw errorInFile(path, "cannot write the tensor");
}

} // namespace tessera::onnx_io
