// The export driver: names, graph inputs, nodes in dependency order, graph outputs, value_info,
// opset imports, then libonnx's checker.
#include "onnx/OnnxExport.h"

#include "onnx/ExportWriter.h"
#include "onnx/TensorConversion.h"
#include "support/Error.h"

#include <onnx/checker.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

namespace tessera::onnx_io {

namespace {

constexpr int64_t kExportOpset = 17; // the newest opset libonnx 1.12's checker knows
constexpr int64_t kExportIrVersion = 8;

onnx::ValueInfoProto& addValueInfo(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
                                   const TensorType& type) {
  onnx::ValueInfoProto& info = *list->Add();
  info.set_name(name);
  setTensorType(type, info.mutable_type());
  return info;
}

// Writes the open axes of graph input or output `name` back as the model declared them.
void openAxesOf(onnx::ValueInfoProto& info, bool output, const ExportOptions& options) {
  auto* dims = info.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
  for (const FreeAxis& axis : options.openAxes) {
    if (axis.output != output || axis.tensor != info.name() || axis.axis < 0 || axis.axis >= dims->size()) continue;
    onnx::TensorShapeProto_Dimension& dim = (*dims)[axis.axis];
    dim.clear_dim_value();
    if (!axis.param.empty()) dim.set_dim_param(axis.param);
  }
}

// Element type and rank only.
void forgetSizes(onnx::ValueInfoProto& info) {
  for (auto& dim : *info.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) dim.clear_dim_value();
}

// The default domain at opset 17, every domain the model came with, and any domain an opaque
// node uses that the graph's info does not list (at version 1).
void addOpsetImports(const Graph& graph, onnx::ModelProto& model) {
  std::map<std::string, int64_t> opsets;
  for (const auto& [domain, version] : graph.info.otherOpsets)
    if (!domain.empty() && domain != "ai.onnx") opsets[domain] = version;
  for (const Node& node : graph.nodes())
    if (node.opaque && !node.opaque->domain.empty()) opsets.emplace(node.opaque->domain, 1);
  auto* standard = model.add_opset_import();
  standard->set_domain("");
  standard->set_version(kExportOpset);
  for (const auto& [domain, version] : opsets) {
    auto* other = model.add_opset_import();
    other->set_domain(domain);
    other->set_version(version);
  }
}

onnx::ModelProto buildModel(const Graph& graph, const ExportOptions& options) {
  onnx::ModelProto model;
  model.set_ir_version(kExportIrVersion);
  model.set_producer_name("tessera");
  model.set_producer_version("0.1");
  addOpsetImports(graph, model);
  onnx::GraphProto* proto = model.mutable_graph();
  proto->set_name(graph.info.name.empty() ? "tessera" : graph.info.name);

  ExportWriter writer(graph, proto);
  for (NodeId id : graph.inputNodes())
    openAxesOf(addValueInfo(proto->mutable_input(), writer.nameOf({id, 0}), graph.node(id).outputTypes[0]), false, options);
  for (NodeId id : graph.topologicalOrder()) writeNode(writer, id);

  std::unordered_set<std::string> outputNames;
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const GraphOutput& output = graph.outputs()[i];
    const std::string& name = writer.outputName(i);
    if (name != writer.nameOf(output.value)) writer.addNode("Identity", {writer.nameOf(output.value)}, {name}, name + "_identity");
    openAxesOf(addValueInfo(proto->mutable_output(), name, graph.typeOf(output.value)), true, options);
    outputNames.insert(name);
  }
  // Types of intermediate tensors: re-import needs them for ops libonnx cannot infer.
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input) continue;
    if (node.kind == OpKind::Weight && (!node.weight->isSplat() || node.weight->numel() <= 1)) continue; // initializers carry types
    for (uint32_t port = 0; port < node.outputTypes.size(); ++port) {
      const std::string& name = writer.nameOf({id, port});
      if (name.empty() || outputNames.count(name) || node.outputTypes[port].dtype == DType::Undefined) continue;
      onnx::ValueInfoProto& info = addValueInfo(proto->mutable_value_info(), name, node.outputTypes[port]);
      if (!options.openAxes.empty()) forgetSizes(info);
    }
  }
  return model;
}

} // namespace

std::string exportOnnxBytes(const Graph& graph, const ExportOptions& options) {
  onnx::ModelProto model;
  try {
    model = buildModel(graph, options);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(std::string("cannot export: ") + e.what());
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    throw Error(std::string("the exported model fails the ONNX checker: ") + e.what());
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw Error("cannot serialize the exported model (is it larger than 2 GiB?)");
  return bytes;
}

void exportOnnxFile(const Graph& graph, const std::string& path, const ExportOptions& options) {
  std::string bytes;
  try {
    bytes = exportOnnxBytes(graph, options);
  } catch (const Error& e) {
    throw errorInFile(path, e.what());
  }
  writeModelFile(bytes, path);
}

void writeModelFile(const std::string& bytes, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, std::string("cannot create: ") + std::strerror(errno));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw errorInFile(path, "cannot write the model");
}

} // namespace tessera::onnx_io
