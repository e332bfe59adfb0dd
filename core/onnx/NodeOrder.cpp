#include "onnx/NodeOrder.h"

#include "onnx/Subgraphs.h"
#include "support/Error.h"

#include <functional>
#include <queue>
#include <unordered_map>

namespace tessera::onnx_io {

namespace {
std::string nodeLabel(const onnx::NodeProto& node) {
  if (!node.name().empty()) return "node '" + node.name() + "' (" + node.op_type() + ")";
  return "a " + node.op_type() + " node";
}
} // namespace

std::vector<int> dependencyOrder(const onnx::GraphProto& graph, const std::unordered_set<std::string>& available) {
  int count = graph.node_size();
  std::unordered_map<std::string, int> producer;
  for (int n = 0; n < count; ++n) {
    const onnx::NodeProto& node = graph.node(n);
    for (const std::string& output : node.output()) {
      if (output.empty()) continue;
      if (available.count(output)) throw Error("tensor '" + output + "' is a graph input or initializer and also an output of " + nodeLabel(node));
      auto [it, inserted] = producer.emplace(output, n);
      if (!inserted) throw Error("tensor '" + output + "' is produced twice (by " + nodeLabel(graph.node(it->second)) + " and " + nodeLabel(node) + ")");
    }
  }

  std::vector<int> pending(static_cast<size_t>(count), 0);
  std::vector<std::vector<int>> readers(static_cast<size_t>(count));
  for (int n = 0; n < count; ++n) {
    const onnx::NodeProto& node = graph.node(n);
    for (const std::string& input : node.input()) {
      if (input.empty() || available.count(input)) continue;
      auto it = producer.find(input);
      if (it == producer.end()) throw Error(nodeLabel(node) + " reads tensor '" + input + "', which no node produces and which is not a graph input or initializer");
      readers[static_cast<size_t>(it->second)].push_back(n);
      ++pending[static_cast<size_t>(n)];
    }
    // What its subgraphs read of this graph comes first too; a name defined nowhere is reported
    // by the control-flow importer, which names the subgraph.
    if (node.attribute_size() == 0) continue;
    for (const std::string& name : outerNamesRead(node)) {
      auto it = producer.find(name);
      if (available.count(name) || it == producer.end() || it->second == n) continue;
      readers[static_cast<size_t>(it->second)].push_back(n);
      ++pending[static_cast<size_t>(n)];
    }
  }

  // Kahn's algorithm, always taking the earliest ready node so a sorted file keeps its order.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int n = 0; n < count; ++n)
    if (pending[static_cast<size_t>(n)] == 0) ready.push(n);
  std::vector<int> order;
  order.reserve(static_cast<size_t>(count));
  while (!ready.empty()) {
    int n = ready.top();
    ready.pop();
    order.push_back(n);
    for (int reader : readers[static_cast<size_t>(n)])
      if (--pending[static_cast<size_t>(reader)] == 0) ready.push(reader);
  }
  if (static_cast<int>(order.size()) != count) {
    for (int n = 0; n < count; ++n)
      if (pending[static_cast<size_t>(n)] > 0) throw Error("the graph has a cycle through " + nodeLabel(graph.node(n)));
  }
  return order;
}

} // namespace tessera::onnx_io
