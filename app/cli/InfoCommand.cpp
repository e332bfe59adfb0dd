// `tessera-cli info MODEL [--json F]`: what a model holds — inputs, outputs, ops by kind,
// parameters and the ops Tessera keeps opaque.
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"

#include "ir/GraphStats.h"
#include "onnx/OnnxImport.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace tessera::cli {

namespace {

struct InfoOptions {
  std::string model;
  std::string json;
  ModelShapeOptions shapes;
};

nlohmann::json tensorJson(const std::string& name, const TensorType& type) {
  return {{"name", name}, {"dtype", std::string(dtypeName(type.dtype))}, {"shape", type.shape}};
}

// The model's open input and output axes and the sizes they were bound to.
nlohmann::json freeAxesJson(const Graph& graph) {
  nlohmann::json axes = nlohmann::json::array();
  for (const FreeAxis& axis : graph.info.freeAxes)
    axes.push_back({{"tensor", axis.tensor}, {"output", axis.output}, {"axis", axis.axis}, {"dim_param", axis.param}, {"size", axis.size}});
  return axes;
}

void printFreeAxes(const Graph& graph) {
  for (const FreeAxis& axis : graph.info.freeAxes) {
    std::string label = axis.param.empty() ? std::string("(unknown size)") : "'" + axis.param + "'";
    std::printf("free dim   %-6s %s axis %d %s = %lld\n", axis.output ? "output" : "input", axis.tensor.c_str(), axis.axis, label.c_str(),
                static_cast<long long>(axis.size));
  }
}

int runInfo(const InfoOptions& options) {
  Graph graph = options.shapes.import(options.model);
  GraphStats stats = computeGraphStats(graph);

  nlohmann::json report;
  report["model"] = options.model;
  report["name"] = graph.info.name;
  report["opset"] = graph.info.opset;
  report["ops"] = stats.ops;
  report["ops_by_kind"] = stats.opsByKind;
  report["weights"] = stats.weights;
  report["parameters"] = stats.parameters;
  report["opaque_ops"] = stats.opaqueOps;
  report["inputs"] = nlohmann::json::array();
  for (NodeId id : graph.inputNodes()) report["inputs"].push_back(tensorJson(graph.node(id).name, graph.node(id).outputTypes[0]));
  report["outputs"] = nlohmann::json::array();
  for (const GraphOutput& out : graph.outputs()) report["outputs"].push_back(tensorJson(out.name, graph.typeOf(out.value)));
  report["free_axes"] = freeAxesJson(graph);
  report["shape_bindings"] = onnx_io::describeBindings(options.shapes.bindingsFor(options.model));

  std::printf("model      %s (%s, opset %lld)\n", options.model.c_str(), graph.info.name.c_str(),
              static_cast<long long>(graph.info.opset));
  for (NodeId id : graph.inputNodes())
    std::printf("input      %s %s\n", graph.node(id).name.c_str(), graph.node(id).outputTypes[0].toString().c_str());
  for (const GraphOutput& out : graph.outputs())
    std::printf("output     %s %s\n", out.name.c_str(), graph.typeOf(out.value).toString().c_str());
  printFreeAxes(graph);
  std::printf("ops        %zu\n", stats.ops);
  for (const auto& [kind, count] : stats.opsByKind) std::printf("  %-28s %d\n", kind.c_str(), count);
  std::printf("weights    %zu (%lld parameters)\n", stats.weights, static_cast<long long>(stats.parameters));
  std::printf("opaque     %zu\n", stats.opaqueOps.size());
  for (const std::string& op : stats.opaqueOps) std::printf("  %s\n", op.c_str());

  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

} // namespace

void addInfoCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand("info", "Show a model's inputs, outputs (with the sizes given to symbolic dimensions), ops by kind, parameters and opaque ops");
  command->add_option("model", options->model, "ONNX model")->required();
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  addModelShapeOptions(command, options->shapes);
  command->callback([options, &context] { context.exitCode = runInfo(*options); });
}

} // namespace tessera::cli
