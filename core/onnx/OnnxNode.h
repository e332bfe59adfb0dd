// One ONNX node as the importers see it: inputs by position (absent optional ones included),
// outputs, attributes read with their declared types, and a label for error messages.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::onnx_io {

class OnnxNode {
public:
  explicit OnnxNode(const onnx::NodeProto& proto);

  const onnx::NodeProto& proto() const { return proto_; }
  const std::string& opType() const { return proto_.op_type(); }
  // "node 'conv1' (Conv)", or "node producing 'y' (Conv)" for an unnamed node.
  const std::string& label() const { return label_; }
  [[noreturn]] void fail(const std::string& problem) const;

  // Inputs and outputs without trailing absent ("") entries.
  int numInputs() const { return numInputs_; }
  int numOutputs() const { return numOutputs_; }
  bool hasInput(int i) const { return i >= 0 && i < numInputs_ && !proto_.input(i).empty(); }
  const std::string& input(int i) const;
  const std::string& output(int i) const;
  // Throws unless min <= numInputs() <= max.
  void expectInputs(int min, int max) const;

  // Attributes. A present attribute of another type is an Error (the model is malformed).
  const onnx::AttributeProto* attribute(std::string_view name) const;
  bool has(std::string_view name) const { return attribute(name) != nullptr; }
  int64_t getInt(std::string_view name, int64_t fallback) const;
  float getFloat(std::string_view name, float fallback) const;
  std::string getString(std::string_view name, std::string fallback) const;
  std::vector<int64_t> getInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> getFloats(std::string_view name) const;
  // True when every attribute is one of `known`: a node with others is in a form the IR
  // does not model.
  bool onlyAttributes(std::initializer_list<std::string_view> known) const { return onlyAttributes(std::vector<std::string_view>(known)); }
  bool onlyAttributes(const std::vector<std::string_view>& known) const;
  // True when some attribute holds a graph (If, Loop, Scan bodies).
  bool hasSubgraph() const;

private:
  const onnx::AttributeProto& typed(const onnx::AttributeProto& attr, int type) const;

  const onnx::NodeProto& proto_;
  std::string label_;
  int numInputs_ = 0;
  int numOutputs_ = 0;
};

// The attribute's type, taken from the fields set when an old writer left `type` UNDEFINED.
int attributeType(const onnx::AttributeProto& attr);

} // namespace tessera::onnx_io
