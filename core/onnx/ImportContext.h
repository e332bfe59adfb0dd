// State shared by the steps of one import: the graph being built, what each ONNX tensor name
// stands for (a graph value, a known constant, or both), which names are read, and the
// model's opsets and declared types.
#pragma once

#include "ir/Graph.h"
#include "onnx/TensorConversion.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tessera::onnx_io {

class OnnxNode;

class ImportContext {
public:
  Graph graph;
  int64_t opset = 0;                                         // of the default domain
  std::vector<std::pair<std::string, int64_t>> otherOpsets; // domain -> version
  // Types declared by value_info and graph outputs, by tensor name.
  std::unordered_map<std::string, DeclaredType> declared;

  bool defined(const std::string& name) const { return values_.count(name) != 0; }
  // A constant (initializer, Constant, folded chain). It enters the graph as a Weight named
  // `name` only when some op reads it as data.
  void defineConstant(const std::string& name, Tensor value);
  // A graph value; the tensor name is recorded on the node's output.
  void defineValue(const std::string& name, ValueRef ref);

  const TensorType& typeOf(const std::string& name) const;
  // The constant value behind `name`, or nullptr when it is computed at run time.
  const Tensor* constant(const std::string& name) const;
  // The graph value of `name`, adding the Weight node for a constant on first use.
  ValueRef materialize(const std::string& name);

  void markRead(const std::string& name) { read_.insert(name); }
  // Whether a node or a graph output reads the tensor (unread outputs may be dropped).
  bool isRead(const std::string& name) const { return !name.empty() && read_.count(name) != 0; }

  // Graph::addNode with the ONNX node's label in errors. With `named`, the IR node takes the
  // ONNX node's name (the last node of an expansion does; helpers get generated names).
  NodeId addNode(const OnnxNode& node, OpKind kind, std::vector<ValueRef> inputs, Attributes attrs, bool named = true);

private:
  struct Entry {
    TensorType type;
    std::optional<ValueRef> ref;
    std::shared_ptr<const Tensor> constant;
  };
  const Entry& entry(const std::string& name) const;

  std::unordered_map<std::string, Entry> values_;
  std::unordered_set<std::string> read_;
};

} // namespace tessera::onnx_io
