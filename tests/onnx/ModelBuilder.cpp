#include "ModelBuilder.h"

#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <iterator>

namespace tessera::test {

namespace {
void setType(onnx::ValueInfoProto& info, const std::vector<int64_t>& dims, int32_t elemType) {
  auto* tensor = info.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elemType);
  auto* shape = tensor->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d < 0)
      dim->set_dim_param("N");
    else
      dim->set_dim_value(d);
  }
}
} // namespace

ModelBuilder::ModelBuilder(int64_t opset, int64_t irVersion) {
  model.set_ir_version(irVersion);
  auto* op = model.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  model.mutable_graph()->set_name("test");
}

ModelBuilder& ModelBuilder::input(const std::string& name, std::vector<int64_t> dims, int32_t elemType) {
  auto* info = model.mutable_graph()->add_input();
  info->set_name(name);
  setType(*info, dims, elemType);
  return *this;
}

ModelBuilder& ModelBuilder::output(const std::string& name) {
  model.mutable_graph()->add_output()->set_name(name);
  return *this;
}

ModelBuilder& ModelBuilder::output(const std::string& name, std::vector<int64_t> dims, int32_t elemType) {
  auto* info = model.mutable_graph()->add_output();
  info->set_name(name);
  setType(*info, dims, elemType);
  return *this;
}

ModelBuilder& ModelBuilder::valueInfo(const std::string& name, std::vector<int64_t> dims, int32_t elemType) {
  auto* info = model.mutable_graph()->add_value_info();
  info->set_name(name);
  setType(*info, dims, elemType);
  return *this;
}

ModelBuilder& ModelBuilder::floats(const std::string& name, std::vector<int64_t> dims, std::vector<float> values) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  for (float v : values) t->add_float_data(v);
  return *this;
}

ModelBuilder& ModelBuilder::ints(const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> values) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);
  return *this;
}

ModelBuilder& ModelBuilder::opsetImport(const std::string& domain, int64_t version) {
  auto* op = model.add_opset_import();
  op->set_domain(domain);
  op->set_version(version);
  return *this;
}

onnx::NodeProto& ModelBuilder::node(const std::string& opType, std::vector<std::string> inputs, std::vector<std::string> outputs,
                                    const std::string& name) {
  auto* node = model.mutable_graph()->add_node();
  node->set_op_type(opType);
  if (!name.empty()) node->set_name(name);
  for (auto& input : inputs) node->add_input(input);
  for (auto& output : outputs) node->add_output(output);
  return *node;
}

std::string ModelBuilder::bytes() const { return model.SerializeAsString(); }

Graph ModelBuilder::import(const std::string& sourceName) const { return onnx_io::importOnnxBytes(bytes(), sourceName); }

void setAttr(onnx::NodeProto& node, const std::string& name, int64_t value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

void setAttr(onnx::NodeProto& node, const std::string& name, float value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}

void setAttr(onnx::NodeProto& node, const std::string& name, const std::string& value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

void setAttr(onnx::NodeProto& node, const std::string& name, std::vector<int64_t> values) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

void setAttr(onnx::NodeProto& node, const std::string& name, std::vector<float> values) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float v : values) a->add_floats(v);
}

void setAttr(onnx::NodeProto& node, const std::string& name, const onnx::TensorProto& value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = value;
}

std::vector<std::string> opNames(const Graph& graph) {
  std::vector<std::string> names;
  for (const Node& node : graph.nodes())
    if (node.kind != OpKind::Input && node.kind != OpKind::Weight) names.emplace_back(opName(node.kind));
  return names;
}

size_t countKind(const Graph& graph, OpKind kind) {
  size_t count = 0;
  for (const Node& node : graph.nodes()) count += node.kind == kind;
  return count;
}

const Node& onlyNode(const Graph& graph, OpKind kind) {
  const Node* found = nullptr;
  size_t count = 0;
  for (const Node& node : graph.nodes())
    if (node.kind == kind) {
      found = &node;
      ++count;
    }
  EXPECT_EQ(count, 1u) << "nodes of kind " << opName(kind);
  if (!found) throw std::runtime_error("no node of kind " + std::string(opName(kind)));
  return *found;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string writeTempFile(const std::string& name, const std::string& bytes) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tessera-onnx-tests-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

} // namespace tessera::test
