// `tessera-cli run MODEL (--dummy-input | --input NAME=FILE.pb ...) --output-dir DIR`: executes a
// model with the reference interpreter and writes output_<i>.pb (the ONNX backend-test layout).
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::cli {

namespace {

struct RunOptions {
  std::string model;
  bool dummyInput = false;
  std::vector<std::string> inputs; // NAME=FILE.pb
  std::string outputDir;
  std::string json;
  ModelShapeOptions shapes;
};

// The --input files by input name.
TensorMap readInputFiles(const RunOptions& options) {
  TensorMap inputs;
  for (const std::string& spec : options.inputs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("--input expects NAME=FILE.pb, got '" + spec + "'");
    inputs[spec.substr(0, eq)] = onnx_io::readTensorProtoFile(spec.substr(eq + 1));
  }
  return inputs;
}

// An input file fixes the shape of an input the model leaves open, unless --input-shape does.
onnx_io::ShapeBindings bindingsWithInputFiles(const RunOptions& options, const TensorMap& files) {
  onnx_io::ShapeBindings bindings = options.shapes.bindingsFor(options.model);
  if (files.empty()) return bindings;
  for (const onnx_io::DeclaredInput& input : onnx_io::bindableInputs(options.model))
    if (auto file = files.find(input.name); file != files.end() && input.isOpen()) bindings.inputShapes.emplace(input.name, file->second.shape());
  return bindings;
}

TensorMap readInputs(const Graph& graph, const RunOptions& options, TensorMap files) {
  if (options.dummyInput) return dummyInputs(graph);
  TensorMap inputs;
  for (auto& [name, tensor] : files) {
    if (!graph.findNode(name) || graph.node(*graph.findNode(name)).kind != OpKind::Input)
      throw errorInFile(options.model, "has no input named '" + name + "'");
    inputs[name] = std::move(tensor);
  }
  for (NodeId id : graph.inputNodes())
    if (!inputs.count(graph.node(id).name))
      throw Error("no value for input '" + graph.node(id).name + "': pass --input " + graph.node(id).name + "=FILE.pb or --dummy-input");
  return inputs;
}

int runModel(const RunOptions& options) {
  TensorMap files = readInputFiles(options);
  Graph graph = onnx_io::importOnnxFile(options.model, bindingsWithInputFiles(options, files));
  TensorMap inputs = readInputs(graph, options, std::move(files));
  auto start = std::chrono::steady_clock::now();
  std::vector<Tensor> outputs;
  try {
    outputs = runGraph(graph, inputs);
  } catch (const Error& e) {
    throw errorInFile(options.model, e.what());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::error_code ec;
  std::filesystem::create_directories(options.outputDir, ec);
  if (ec) throw errorInFile(options.outputDir, "cannot create directory: " + ec.message());
  nlohmann::json report{{"model", options.model}, {"seconds", seconds}, {"outputs", nlohmann::json::array()}};
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string path = (std::filesystem::path(options.outputDir) / ("output_" + std::to_string(i) + ".pb")).string();
    const std::string& name = graph.outputs()[i].name;
    onnx_io::writeTensorProtoFile(outputs[i], name, path);
    std::printf("%s %s -> %s\n", name.c_str(), outputs[i].type().toString().c_str(), path.c_str());
    report["outputs"].push_back({{"name", name}, {"shape", outputs[i].shape()}, {"file", path}});
  }
  std::printf("ran in %.3f s\n", seconds);
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

} // namespace

void addRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run a model with the reference interpreter and write its outputs as TensorProto files");
  command->add_option("model", options->model, "ONNX model")->required();
  auto* dummy = command->add_flag("--dummy-input", options->dummyInput, "Feed arange(n)/n to every float input, arange(n) within the valid range to integer ones");
  auto* input = command->add_option("--input", options->inputs, "NAME=FILE.pb (repeatable)");
  dummy->excludes(input);
  command->add_option("--output-dir", options->outputDir, "Directory for output_<i>.pb")->required();
  addModelShapeOptions(command, options->shapes);
  command->add_option("--json", options->json, "Also write a JSON report");
  command->callback([options, &context] {
    if (!options->dummyInput && options->inputs.empty()) throw CLI::RequiredError("--dummy-input or --input");
    context.exitCode = runModel(*options);
  });
}

} // namespace tessera::cli
