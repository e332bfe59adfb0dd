// Builds small ONNX ModelProtos in C++ for the importer tests: inputs, initializers, nodes with
// attributes, declared outputs.
#pragma once

#include "ir/Graph.h"

#include <onnx/onnx_pb.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace tessera::test {

using onnx::TensorProto;

class ModelBuilder {
public:
  explicit ModelBuilder(int64_t opset, int64_t irVersion = 8);

  // dims: -1 is a symbolic dimension ("N").
  ModelBuilder& input(const std::string& name, std::vector<int64_t> dims, int32_t elemType = TensorProto::FLOAT);
  // Declares a graph output; with no dims the output carries no type.
  ModelBuilder& output(const std::string& name);
  ModelBuilder& output(const std::string& name, std::vector<int64_t> dims, int32_t elemType = TensorProto::FLOAT);
  ModelBuilder& valueInfo(const std::string& name, std::vector<int64_t> dims, int32_t elemType = TensorProto::FLOAT);
  ModelBuilder& floats(const std::string& name, std::vector<int64_t> dims, std::vector<float> values);
  ModelBuilder& ints(const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> values);
  ModelBuilder& ints(const std::string& name, std::vector<int64_t> values) { return ints(name, {int64_t(values.size())}, values); }
  ModelBuilder& opsetImport(const std::string& domain, int64_t version);

  onnx::NodeProto& node(const std::string& opType, std::vector<std::string> inputs, std::vector<std::string> outputs,
                        const std::string& name = "");

  std::string bytes() const;
  // importOnnxBytes(bytes(), sourceName)
  Graph import(const std::string& sourceName = "test.onnx") const;

  onnx::ModelProto model;
};

void setAttr(onnx::NodeProto& node, const std::string& name, int64_t value);
void setAttr(onnx::NodeProto& node, const std::string& name, float value);
void setAttr(onnx::NodeProto& node, const std::string& name, const std::string& value);
void setAttr(onnx::NodeProto& node, const std::string& name, std::vector<int64_t> values);
void setAttr(onnx::NodeProto& node, const std::string& name, std::vector<float> values);
void setAttr(onnx::NodeProto& node, const std::string& name, const onnx::TensorProto& value);

// Ops of the graph, in node order, by IR name (Inputs and Weights left out).
std::vector<std::string> opNames(const Graph& graph);
// The only node of `kind`; fails the test when there is not exactly one.
const Node& onlyNode(const Graph& graph, OpKind kind);
size_t countKind(const Graph& graph, OpKind kind);

std::string readFile(const std::string& path);
std::string writeTempFile(const std::string& name, const std::string& bytes);

} // namespace tessera::test
