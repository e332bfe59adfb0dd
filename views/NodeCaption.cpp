#include "NodeCaption.h"

#include "onnx/ControlFlowImport.h"

#include <algorithm>

namespace tessera::views {

namespace {

constexpr size_t kMaxTitleChars = 30;
constexpr size_t kMaxDetailChars = 36;

std::string dims(const std::vector<int64_t>& values, const char* separator) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

bool allOnes(const std::vector<int64_t>& values) {
  for (int64_t v : values)
    if (v != 1) return false;
  return true;
}

bool allSame(const std::vector<int64_t>& values) {
  for (int64_t v : values)
    if (v != values.front()) return false;
  return true;
}

// " 3×3 /2": a window and its stride, the two facts people read a conv or pool by.
std::string windowSuffix(const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides) {
  std::string out;
  if (!kernel.empty()) out += " " + dims(kernel, "×");
  if (strides.empty() || allOnes(strides)) return out;
  return out + " /" + (allSame(strides) ? std::to_string(strides.front()) : dims(strides, "×"));
}

std::string activationSuffix(const Node& node) {
  switch (static_cast<Activation>(node.attrs.getInt("activation", 0))) {
  case Activation::None: return {};
  case Activation::Sigmoid: return " +Sigmoid";
  case Activation::Relu: return " +Relu";
  case Activation::Tanh: return " +Tanh";
  }
  return " +act" + std::to_string(node.attrs.getInt("activation", 0));
}

std::string convTitle(const Graph& graph, const Node& node) {
  std::string title = "Conv";
  if (node.inputs.size() < 2 || node.inputs[0].isNone() || node.inputs[1].isNone()) return title;
  const Shape& weight = graph.typeOf(node.inputs[1]).shape;
  const Shape& input = graph.typeOf(node.inputs[0]).shape;
  if (weight.size() >= 3) title += windowSuffix({weight.begin() + 2, weight.end()}, node.attrs.getInts("strides"));
  // The IR keeps no group attribute: it is the input channels over the weight's channels.
  if (input.size() >= 2 && weight.size() >= 2 && weight[1] > 0 && input[1] / weight[1] > 1)
    title += " g" + std::to_string(input[1] / weight[1]);
  return title + activationSuffix(node);
}

// "If · then 41 · else 41 ops": a control-flow node with its subgraphs collapsed, counted in
// their own nodes (a nested If counts once), short enough for the title's width.
std::string opaqueTitle(const Node& node) {
  if (!node.opaque) return std::string(opName(node.kind));
  std::vector<onnx_io::SubgraphSummary> subgraphs = onnx_io::summarizeSubgraphs(*node.opaque);
  // then before else, whatever order the file keeps them in
  std::stable_sort(subgraphs.begin(), subgraphs.end(), [](const auto& a, const auto& b) { return a.attribute == "then_branch" && b.attribute != "then_branch"; });
  std::string title = node.opaque->opType;
  for (const onnx_io::SubgraphSummary& sub : subgraphs) {
    std::string part = sub.attribute;
    if (part.size() > 7 && part.compare(part.size() - 7, 7, "_branch") == 0) part.resize(part.size() - 7); // then_branch: "then"
    title += " · " + part + " " + std::to_string(sub.nodes);
  }
  if (!subgraphs.empty()) title += subgraphs.back().nodes == 1 && subgraphs.size() == 1 ? " op" : " ops";
  return title;
}

std::string opTitle(const Graph& graph, const Node& node) {
  std::string name(opName(node.kind));
  switch (node.kind) {
  case OpKind::Conv: return convTitle(graph, node);
  case OpKind::MaxPool:
  case OpKind::AveragePool:
    return name + windowSuffix(node.attrs.getInts("kernel_shape"), node.attrs.getInts("strides"));
  case OpKind::GlobalAveragePool: return "GlobalAvgPool";
  case OpKind::Gemm:
  case OpKind::MatMul: return name + activationSuffix(node);
  case OpKind::Concat:
  case OpKind::Split: {
    int64_t axis = node.attrs.getInt("axis", 1);
    std::string title = node.kind == OpKind::Split ? name + " ×" + std::to_string(node.numOutputs()) : name;
    return axis == 1 ? title : title + " axis " + std::to_string(axis);
  }
  case OpKind::Transpose: return name + " [" + dims(node.attrs.getInts("perm"), ",") + "]";
  case OpKind::Opaque: return opaqueTitle(node);
  default: return name;
  }
}

} // namespace

std::string shapeCaption(const Shape& shape) {
  if (shape.empty()) return "scalar";
  return dims(shape, "×");
}

std::string elide(const std::string& text, size_t maxChars) {
  auto isLead = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  size_t chars = 0;
  for (char c : text) chars += isLead(c);
  if (chars <= maxChars || maxChars == 0) return text;
  size_t kept = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!isLead(text[i])) continue;
    if (kept == maxChars - 1) return text.substr(0, i) + "…";
    ++kept;
  }
  return text;
}

NodeCaption nodeCaption(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  NodeCaption caption;
  if (node.kind == OpKind::Input || node.kind == OpKind::Weight) {
    caption.title = node.name.empty() ? std::string(opName(node.kind)) : node.name;
  } else {
    caption.title = opTitle(graph, node);
  }
  for (size_t i = 0; i < node.outputTypes.size(); ++i) {
    if (i) caption.detail += ", ";
    caption.detail += shapeCaption(node.outputTypes[i].shape);
  }
  caption.title = elide(caption.title, kMaxTitleChars);
  caption.detail = elide(caption.detail, kMaxDetailChars);
  return caption;
}

} // namespace tessera::views
