#include "OrtExecutor.h"

#include "Timings.h"

#include "interp/TestData.h"
#include "ir/GraphHash.h"
#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace tessera::ort {

namespace {

constexpr size_t kKeptModels = 4;
constexpr uint64_t kWeightSeed = 13;

// `graph` with every splat weight of more than one element replaced by seeded random values that
// depend on its name and shape only, so that an original and its candidate get the same values.
Graph withDistinctWeights(const Graph& graph) {
  Graph copy = graph;
  const TensorMap values = randomWeights(graph, kWeightSeed);
  for (NodeId id : copy.weightNodes()) {
    Node& node = copy.mutableNode(id);
    auto it = values.find(node.name);
    if (node.weight && node.weight->isSplat() && it != values.end()) node.weight = std::make_shared<const Tensor>(it->second);
  }
  return copy;
}

// An input's raw little-endian elements, float32 or int64 (token ids), as the worker reads them.
void writeElements(const Tensor& value, const std::string& path) {
  const Tensor dense = value.materialized();
  std::ofstream out(path, std::ios::binary);
  const std::span<const std::byte> bytes = dense.bytes();
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw Error("ort executor: cannot write " + path);
}

Tensor readFloats(const std::string& path, const Shape& shape) {
  std::ifstream in(path, std::ios::binary);
  std::vector<float> values(static_cast<size_t>(numelOf(shape)));
  in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!in || in.peek() != std::char_traits<char>::eof())
    throw Error("ort executor: " + path + " does not hold " + std::to_string(values.size()) + " floats");
  return Tensor::fromFloats(shape, std::move(values));
}

} // namespace

OrtExecutor::OrtExecutor(const OrtInstall& install, std::string device) : worker_(install), device_(std::move(device)) {}

const std::string& OrtExecutor::modelFile(const Graph& graph, bool forTiming) {
  for (auto it = exported_.begin(); it != exported_.end(); ++it) {
    if (it->forTiming != forTiming || !structurallyEqual(it->graph, graph)) continue;
    if (std::next(it) != exported_.end()) {
      Exported hit = std::move(*it);
      exported_.erase(it);
      exported_.push_back(std::move(hit));
    }
    return exported_.back().path;
  }
  const std::string path = (worker_.scratch() / ("graph" + std::to_string(filesWritten_++) + ".onnx")).string();
  onnx_io::exportOnnxFile(forTiming ? withDistinctWeights(graph) : graph, path);
  worker_.request({{"cmd", "load"}, {"model", path}});
  exported_.push_back({graph, forTiming, path});
  if (exported_.size() > kKeptModels) {
    worker_.request({{"cmd", "unload"}, {"model", exported_.front().path}});
    std::filesystem::remove(exported_.front().path);
    exported_.pop_front();
  }
  return exported_.back().path;
}

std::vector<Tensor> OrtExecutor::run(const Graph& graph, const TensorMap& inputs) {
  const std::string& path = modelFile(graph, false);
  nlohmann::json given = nlohmann::json::object();
  for (NodeId id : graph.inputNodes()) {
    const Node& input = graph.node(id);
    auto it = inputs.find(input.name);
    if (it == inputs.end()) throw Error("ort executor: no value given for input '" + input.name + "'");
    if (it->second.type() != input.outputTypes[0])
      throw Error("ort executor: input '" + input.name + "' is " + it->second.type().toString() + ", the graph wants " +
                  input.outputTypes[0].toString());
    const DType dtype = it->second.dtype();
    if (dtype != DType::Float32 && dtype != DType::Int64)
      throw Error("ort executor: input '" + input.name + "' is " + it->second.type().toString() + "; the worker feeds float32 and int64 inputs only");
    const bool floats = dtype == DType::Float32;
    const std::string file = (worker_.scratch() / ("input" + std::to_string(given.size()) + (floats ? ".f32" : ".i64"))).string();
    writeElements(it->second, file);
    given[input.name] = {{"file", file}, {"type", floats ? "float32" : "int64"}, {"dims", input.outputTypes[0].shape}};
  }
  const nlohmann::json reply =
      worker_.request({{"cmd", "run"}, {"model", path}, {"inputs", given}, {"out_dir", worker_.scratch().string()}});
  const nlohmann::json& outputs = reply.at("outputs");
  if (outputs.size() != graph.outputs().size())
    throw Error("ort executor: ONNX Runtime returned " + std::to_string(outputs.size()) + " outputs, the graph has " +
                std::to_string(graph.outputs().size()));
  std::vector<Tensor> values;
  for (const nlohmann::json& output : outputs) {
    const std::string file = output.at("file").get<std::string>();
    values.push_back(readFloats(file, output.at("dims").get<Shape>()));
    std::filesystem::remove(file);
  }
  return values;
}

double OrtExecutor::measureLatencyMs(const Graph& graph, int warmup, int runs) {
  if (runs < 1) throw Error("measureLatencyMs needs at least one timed run, got " + std::to_string(runs));
  const nlohmann::json reply = worker_.request({{"cmd", "time"}, {"model", modelFile(graph, true)}, {"warmup", warmup}, {"runs", runs}});
  return median(reply.at("ms").get<std::vector<double>>());
}

std::pair<std::vector<double>, std::vector<double>> OrtExecutor::compareFiles(const std::string& first, const std::string& second,
                                                                              int warmup, int rounds) {
  const nlohmann::json reply =
      worker_.request({{"cmd", "compare"}, {"models", {first, second}}, {"warmup", warmup}, {"rounds", rounds}});
  worker_.request({{"cmd", "unload"}, {"model", first}});
  worker_.request({{"cmd", "unload"}, {"model", second}});
  return {reply.at("ms").at(0).get<std::vector<double>>(), reply.at("ms").at(1).get<std::vector<double>>()};
}

} // namespace tessera::ort
