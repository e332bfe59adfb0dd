#include "onnx/ImportContext.h"

#include "onnx/ImportLimits.h"
#include "onnx/OnnxNode.h"
#include "support/Error.h"

#include <cassert>

namespace tessera::onnx_io {

void ImportContext::defineConstant(const std::string& name, Tensor value) {
  assert(!defined(name) && "producers are unique: checked when the nodes are ordered");
  Entry& e = values_[name];
  e.type = value.type();
  e.constant = std::make_shared<const Tensor>(std::move(value));
}

void ImportContext::defineValue(const std::string& name, ValueRef ref) {
  assert(!defined(name) && "producers are unique: checked when the nodes are ordered");
  Entry& e = values_[name];
  e.type = graph.typeOf(ref);
  e.ref = ref;
  std::string& outputName = graph.mutableNode(ref.node).outputNames[ref.port];
  if (outputName.empty()) outputName = name;
}

const ImportContext::Entry& ImportContext::entry(const std::string& name) const {
  auto it = values_.find(name);
  // Node order guarantees every read name is defined; this guards the remaining paths.
  if (it == values_.end()) throw Error("tensor '" + name + "' is read but never defined");
  return it->second;
}

const TensorType& ImportContext::typeOf(const std::string& name) const { return entry(name).type; }

const Tensor* ImportContext::constant(const std::string& name) const { return entry(name).constant.get(); }

ValueRef ImportContext::materialize(const std::string& name) {
  const Entry& e = entry(name);
  if (e.ref) return *e.ref;
  assert(e.constant && "an entry is a graph value, a constant, or both");
  ValueRef ref{graph.addWeight(name, *e.constant), 0};
  values_[name].ref = ref;
  return ref;
}

NodeId ImportContext::addNode(const OnnxNode& node, OpKind kind, std::vector<ValueRef> inputs, Attributes attrs, bool named) {
  std::string name = named ? node.proto().name() : std::string();
  size_t id = graph.size();
  try {
    NodeId added = graph.addNode(kind, std::move(inputs), std::move(attrs), name);
    // Shape rules add and multiply dimensions; keep every result inside the import limits.
    for (const TensorType& type : graph.node(added).outputTypes) checkedNumel(type.shape, "the result");
    return added;
  } catch (const Error& e) {
    // Graph::addNode names the node by its IR name; say which ONNX node it came from instead.
    std::string message = e.what();
    std::string irName = name.empty() ? std::string(opName(kind)) + "_" + std::to_string(id) : name;
    std::string prefix = "node '" + irName + "' (" + std::string(opName(kind)) + "): ";
    if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
    node.fail(message);
  }
}

} // namespace tessera::onnx_io
