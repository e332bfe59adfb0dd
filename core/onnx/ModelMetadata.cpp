#include "onnx/ModelMetadata.h"

#include "support/Error.h"

#include <onnx/onnx_pb.h>

namespace tessera::onnx_io {

namespace {

onnx::ModelProto parsed(std::string_view bytes) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) throw Error("the bytes are not an ONNX model");
  return model;
}

} // namespace

std::string withMetadata(std::string_view modelBytes, const std::map<std::string, std::string>& props) {
  onnx::ModelProto model = parsed(modelBytes);
  std::map<std::string, std::string> merged = readMetadata(modelBytes);
  for (const auto& [key, value] : props) merged[key] = value;
  model.clear_metadata_props();
  for (const auto& [key, value] : merged) {
    onnx::StringStringEntryProto* entry = model.add_metadata_props();
    entry->set_key(key);
    entry->set_value(value);
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw Error("the model with its metadata cannot be serialized");
  return bytes;
}

std::map<std::string, std::string> readMetadata(std::string_view modelBytes) {
  std::map<std::string, std::string> props;
  const onnx::ModelProto model = parsed(modelBytes);
  for (const onnx::StringStringEntryProto& entry : model.metadata_props()) props[entry.key()] = entry.value();
  return props;
}

} // namespace tessera::onnx_io
