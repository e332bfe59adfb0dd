// The subgraphs of an ONNX node (If's branches, Loop's and Scan's body, any GRAPH or GRAPHS
// attribute) seen from the enclosing graph: which outer tensors they read by name, and which
// names they define. ONNX lets a subgraph read any tensor of an enclosing graph without an
// edge; the importer turns those reads into inputs, the exporter keeps the names free.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_set>
#include <vector>

namespace tessera::onnx_io {

// The graphs held by one attribute (one for GRAPH, several for GRAPHS).
std::vector<const onnx::GraphProto*> graphsOf(const onnx::AttributeProto& attr);

// Every name the node's subgraphs (nested ones included) read but do not define themselves:
// tensors of the enclosing graphs. In order of first read, without repeats.
std::vector<std::string> outerNamesRead(const onnx::NodeProto& node);

// Adds every name a subgraph of `attr` (nested ones included) defines: its inputs, initializers
// and node outputs.
void addNamesDefinedInside(const onnx::AttributeProto& attr, std::unordered_set<std::string>& names);

// Every node of the subgraphs of `attr`, nested ones included, in file order.
std::vector<const onnx::NodeProto*> nodesInside(const onnx::AttributeProto& attr);

} // namespace tessera::onnx_io
