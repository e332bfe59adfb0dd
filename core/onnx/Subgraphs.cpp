#include "onnx/Subgraphs.h"

namespace tessera::onnx_io {

namespace {

// Reads of `graph` that it does not define, appended to `free` (deduplicated through `seen`).
void collectFreeNames(const onnx::GraphProto& graph, std::vector<std::string>& free, std::unordered_set<std::string>& seen) {
  std::unordered_set<std::string> defined;
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& initializer : graph.initializer()) defined.insert(initializer.name());
  for (const auto& node : graph.node())
    for (const std::string& output : node.output()) defined.insert(output);
  auto read = [&](const std::string& name) {
    if (name.empty() || defined.count(name) || !seen.insert(name).second) return;
    free.push_back(name);
  };
  for (const auto& node : graph.node()) {
    for (const std::string& input : node.input()) read(input);
    for (const std::string& name : outerNamesRead(node)) read(name);
  }
  for (const auto& output : graph.output()) read(output.name());
}

void collectDefined(const onnx::GraphProto& graph, std::unordered_set<std::string>& names) {
  for (const auto& input : graph.input()) names.insert(input.name());
  for (const auto& initializer : graph.initializer()) names.insert(initializer.name());
  for (const auto& node : graph.node()) {
    for (const std::string& output : node.output())
      if (!output.empty()) names.insert(output);
    for (const auto& attr : node.attribute()) addNamesDefinedInside(attr, names);
  }
}

void collectNodes(const onnx::GraphProto& graph, std::vector<const onnx::NodeProto*>& nodes) {
  for (const auto& node : graph.node()) {
    nodes.push_back(&node);
    for (const auto& attr : node.attribute())
      for (const onnx::GraphProto* inner : graphsOf(attr)) collectNodes(*inner, nodes);
  }
}

} // namespace

std::vector<const onnx::GraphProto*> graphsOf(const onnx::AttributeProto& attr) {
  std::vector<const onnx::GraphProto*> graphs;
  if (attr.has_g()) graphs.push_back(&attr.g());
  for (const auto& g : attr.graphs()) graphs.push_back(&g);
  return graphs;
}

std::vector<std::string> outerNamesRead(const onnx::NodeProto& node) {
  std::vector<std::string> free;
  std::unordered_set<std::string> seen;
  for (const auto& attr : node.attribute())
    for (const onnx::GraphProto* graph : graphsOf(attr)) collectFreeNames(*graph, free, seen);
  return free;
}

void addNamesDefinedInside(const onnx::AttributeProto& attr, std::unordered_set<std::string>& names) {
  for (const onnx::GraphProto* graph : graphsOf(attr)) collectDefined(*graph, names);
}

std::vector<const onnx::NodeProto*> nodesInside(const onnx::AttributeProto& attr) {
  std::vector<const onnx::NodeProto*> nodes;
  for (const onnx::GraphProto* graph : graphsOf(attr)) collectNodes(*graph, nodes);
  return nodes;
}

} // namespace tessera::onnx_io
