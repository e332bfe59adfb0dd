// The order in which an ONNX graph's nodes are imported: every node after the producers of its
// inputs. Files are meant to be sorted already, but are not trusted to be.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_set>
#include <vector>

namespace tessera::onnx_io {

// Node indices in dependency order (the file's order where it allows). `available` holds the
// names defined before any node runs (graph inputs, initializers). Throws tessera::Error naming
// the tensor for a name produced twice or read but never produced, and for a cycle.
std::vector<int> dependencyOrder(const onnx::GraphProto& graph, const std::unordered_set<std::string>& available);

} // namespace tessera::onnx_io
