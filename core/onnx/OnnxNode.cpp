#include "onnx/OnnxNode.h"

#include "support/Error.h"

#include <unordered_set>

namespace tessera::onnx_io {

using onnx::AttributeProto;

OnnxNode::OnnxNode(const onnx::NodeProto& proto) : proto_(proto) {
  numInputs_ = proto.input_size();
  while (numInputs_ > 0 && proto.input(numInputs_ - 1).empty()) --numInputs_;
  numOutputs_ = proto.output_size();
  while (numOutputs_ > 0 && proto.output(numOutputs_ - 1).empty()) --numOutputs_;
  if (!proto.name().empty())
    label_ = "node '" + proto.name() + "' (" + proto.op_type() + ")";
  else if (numOutputs_ > 0)
    label_ = "node producing '" + proto.output(0) + "' (" + proto.op_type() + ")";
  else
    label_ = "unnamed node (" + proto.op_type() + ")";
  // Duplicate attribute names would make every lookup ambiguous.
  std::unordered_set<std::string_view> names;
  for (const onnx::AttributeProto& attr : proto.attribute())
    if (!names.insert(attr.name()).second) fail("attribute '" + attr.name() + "' appears twice");
}

void OnnxNode::fail(const std::string& problem) const { throw Error(label_ + ": " + problem); }

const std::string& OnnxNode::input(int i) const {
  if (!hasInput(i)) fail("input " + std::to_string(i) + " is missing");
  return proto_.input(i);
}

const std::string& OnnxNode::output(int i) const {
  if (i < 0 || i >= proto_.output_size()) fail("output " + std::to_string(i) + " is missing");
  return proto_.output(i);
}

void OnnxNode::expectInputs(int min, int max) const {
  if (numInputs_ < min || numInputs_ > max)
    fail("has " + std::to_string(numInputs_) + " inputs, expected " + std::to_string(min) +
         (min == max ? "" : " to " + std::to_string(max)));
  for (int i = 0; i < min; ++i)
    if (proto_.input(i).empty()) fail("required input " + std::to_string(i) + " is empty");
}

int attributeType(const AttributeProto& attr) {
  if (attr.type() != AttributeProto::UNDEFINED) return attr.type();
  if (attr.has_f()) return AttributeProto::FLOAT;
  if (attr.has_i()) return AttributeProto::INT;
  if (attr.has_s()) return AttributeProto::STRING;
  if (attr.has_t()) return AttributeProto::TENSOR;
  if (attr.has_g()) return AttributeProto::GRAPH;
  if (attr.has_sparse_tensor()) return AttributeProto::SPARSE_TENSOR;
  if (attr.has_tp()) return AttributeProto::TYPE_PROTO;
  if (attr.floats_size()) return AttributeProto::FLOATS;
  if (attr.ints_size()) return AttributeProto::INTS;
  if (attr.strings_size()) return AttributeProto::STRINGS;
  if (attr.tensors_size()) return AttributeProto::TENSORS;
  if (attr.graphs_size()) return AttributeProto::GRAPHS;
  if (attr.sparse_tensors_size()) return AttributeProto::SPARSE_TENSORS;
  if (attr.type_protos_size()) return AttributeProto::TYPE_PROTOS;
  return AttributeProto::UNDEFINED;
}

const AttributeProto* OnnxNode::attribute(std::string_view name) const {
  for (const AttributeProto& attr : proto_.attribute())
    if (attr.name() == name) return &attr;
  return nullptr;
}

const AttributeProto& OnnxNode::typed(const AttributeProto& attr, int type) const {
  int actual = attributeType(attr);
  // An empty list carries no fields, so an old writer's UNDEFINED empty list reads as any list.
  bool emptyList = actual == AttributeProto::UNDEFINED && (type == AttributeProto::INTS || type == AttributeProto::FLOATS);
  if (actual != type && !emptyList)
    fail("attribute '" + attr.name() + "' should be " + AttributeProto::AttributeType_Name(static_cast<AttributeProto::AttributeType>(type)) +
         ", got " +
         (AttributeProto::AttributeType_IsValid(actual) ? AttributeProto::AttributeType_Name(static_cast<AttributeProto::AttributeType>(actual))
                                                        : "type " + std::to_string(actual)));
  return attr;
}

int64_t OnnxNode::getInt(std::string_view name, int64_t fallback) const {
  const AttributeProto* attr = attribute(name);
  return attr ? typed(*attr, AttributeProto::INT).i() : fallback;
}

float OnnxNode::getFloat(std::string_view name, float fallback) const {
  const AttributeProto* attr = attribute(name);
  return attr ? typed(*attr, AttributeProto::FLOAT).f() : fallback;
}

std::string OnnxNode::getString(std::string_view name, std::string fallback) const {
  const AttributeProto* attr = attribute(name);
  return attr ? typed(*attr, AttributeProto::STRING).s() : fallback;
}

std::vector<int64_t> OnnxNode::getInts(std::string_view name, std::vector<int64_t> fallback) const {
  const AttributeProto* attr = attribute(name);
  if (!attr) return fallback;
  const auto& ints = typed(*attr, AttributeProto::INTS).ints();
  return {ints.begin(), ints.end()};
}

std::vector<float> OnnxNode::getFloats(std::string_view name) const {
  const AttributeProto* attr = attribute(name);
  if (!attr) return {};
  const auto& floats = typed(*attr, AttributeProto::FLOATS).floats();
  return {floats.begin(), floats.end()};
}

bool OnnxNode::onlyAttributes(const std::vector<std::string_view>& known) const {
  for (const AttributeProto& attr : proto_.attribute()) {
    bool listed = false;
    for (std::string_view name : known) listed = listed || attr.name() == name;
    if (!listed) return false;
  }
  return true;
}

bool OnnxNode::hasSubgraph() const {
  for (const AttributeProto& attr : proto_.attribute()) {
    int type = attributeType(attr);
    if (type == AttributeProto::GRAPH || type == AttributeProto::GRAPHS || attr.has_g() || attr.graphs_size() > 0) return true;
  }
  return false;
}

} // namespace tessera::onnx_io
