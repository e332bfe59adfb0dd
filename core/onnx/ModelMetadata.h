// The metadata_props of an ONNX model file: key/value pairs a runtime keeps with the model and
// ignores when it runs it. Tessera writes there what an export was checked for (the runtime, the
// measured speedup there), so the file itself says where it was found not to do harm.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tessera::onnx_io {

// `modelBytes` (a serialized ModelProto) with `props` set in its metadata_props, replacing a
// pair of the same key and keeping the others. Throws tessera::Error for bytes that are not a model.
std::string withMetadata(std::string_view modelBytes, const std::map<std::string, std::string>& props);

// The model's metadata_props. Throws tessera::Error for bytes that are not a model.
std::map<std::string, std::string> readMetadata(std::string_view modelBytes);

} // namespace tessera::onnx_io
