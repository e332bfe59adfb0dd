#include "onnx/ConstantImport.h"

#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/ImportOps.h"
#include "onnx/OnnxNode.h"

#include <cmath>

namespace tessera::onnx_io {

void importConstant(ImportContext& ctx, const OnnxNode& node) {
  node.expectInputs(0, 0);
  if (node.numOutputs() != 1) node.fail("must have exactly one output");
  if (node.proto().attribute_size() != 1) node.fail("must have exactly one value attribute");
  const onnx::AttributeProto& attr = node.proto().attribute(0);
  const std::string& name = attr.name();
  std::string what = node.label() + " value";
  Tensor value;
  if (name == "value") {
    if (attributeType(attr) != onnx::AttributeProto::TENSOR) node.fail("attribute 'value' must be a TENSOR");
    value = tensorFromProto(attr.t(), what);
  } else if (name == "value_float") {
    value = Tensor::fromFloats({}, {node.getFloat(name, 0.0f)});
  } else if (name == "value_floats") {
    std::vector<float> floats = node.getFloats(name);
    int64_t count = static_cast<int64_t>(floats.size());
    value = Tensor::fromFloats({count}, std::move(floats));
  } else if (name == "value_int") {
    value = Tensor::fromInts({DType::Int64, {}}, {node.getInt(name, 0)});
  } else if (name == "value_ints") {
    std::vector<int64_t> ints = node.getInts(name);
    int64_t count = static_cast<int64_t>(ints.size());
    value = Tensor::fromInts({DType::Int64, {count}}, std::move(ints));
  } else if (name == "value_string" || name == "value_strings") {
    node.fail("string constants are not supported");
  } else if (name == "sparse_value") {
    node.fail("sparse constants are not supported");
  } else {
    node.fail("unknown attribute '" + name + "'");
  }
  ctx.defineConstant(node.output(0), std::move(value));
}

bool importConstantOfShape(ImportContext& ctx, const OnnxNode& node) {
  node.expectInputs(1, 1);
  if (node.numOutputs() != 1) node.fail("must have exactly one output");
  if (!node.onlyAttributes({"value"})) node.fail("has an attribute other than 'value'");
  auto shape = constantInts(ctx, node, 0);
  if (!shape) return false;
  checkedNumel(*shape, node.label() + " output");
  DType dtype = DType::Float32;
  double fill = 0.0;
  if (const onnx::AttributeProto* attr = node.attribute("value")) {
    if (attributeType(*attr) != onnx::AttributeProto::TENSOR) node.fail("attribute 'value' must be a TENSOR");
    Tensor value = tensorFromProto(attr->t(), node.label() + " value");
    if (value.numel() != 1) node.fail("value must hold exactly one element, got " + value.type().toString());
    dtype = value.dtype();
    fill = value.holdsFloats() ? static_cast<double>(value.floatAt(0)) : static_cast<double>(value.intAt(0));
    // A splat stores its value as a double; beyond 2^53 an integer would not survive.
    if (!value.holdsFloats() && std::abs(fill) > 9007199254740992.0) node.fail("integer fill value is too large");
  }
  ctx.defineConstant(node.output(0), Tensor::splat({dtype, *shape}, fill));
  return true;
}

} // namespace tessera::onnx_io
