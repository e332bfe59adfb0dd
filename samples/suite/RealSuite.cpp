#include "suite/RealSuite.h"

#include "onnx/OnnxImport.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace tessera {

namespace {

constexpr uintmax_t kMaxManifestBytes = 1 << 20;

std::string requiredString(const nlohmann::json& entry, const char* key, const std::string& where) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_string()) throw Error(where + " has no string '" + key + "'");
  return it->get<std::string>();
}

std::string optionalString(const nlohmann::json& entry, const char* key) {
  auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::map<std::string, Shape> readShapes(const nlohmann::json& entry, const std::string& where) {
  std::map<std::string, Shape> shapes;
  auto it = entry.find("input_shapes");
  if (it == entry.end()) return shapes;
  if (!it->is_object()) throw Error(where + ": 'input_shapes' is not an object of input name to shape");
  for (const auto& [input, shape] : it->items()) {
    if (!shape.is_array() || shape.empty()) throw Error(where + ": the shape of input '" + input + "' is not a list of dimensions");
    Shape& dims = shapes[input];
    for (const auto& d : shape) {
      if (!d.is_number_integer() || d.get<int64_t>() < 1)
        throw Error(where + ": the shape of input '" + input + "' has a dimension that is not a positive integer");
      dims.push_back(d.get<int64_t>());
    }
  }
  return shapes;
}

std::map<std::string, int64_t> readValues(const nlohmann::json& entry, const std::string& where) {
  std::map<std::string, int64_t> values;
  auto it = entry.find("input_values");
  if (it == entry.end()) return values;
  if (!it->is_object()) throw Error(where + ": 'input_values' is not an object of input name to integer");
  for (const auto& [input, value] : it->items()) {
    if (!value.is_number_integer()) throw Error(where + ": the value of input '" + input + "' is not an integer");
    values[input] = value.get<int64_t>();
  }
  return values;
}

RealSuiteModel readModel(const nlohmann::json& entry, const std::filesystem::path& folder, const std::string& where,
                         bool controlFlow) {
  if (!entry.is_object()) throw Error(where + " is not an object");
  RealSuiteModel model;
  model.name = requiredString(entry, "name", where);
  const std::string named = where + " ('" + model.name + "')";
  model.path = std::filesystem::weakly_canonical(folder / requiredString(entry, "file", named)).string();
  if (!std::filesystem::is_regular_file(model.path)) throw Error(named + ": the model file " + model.path + " does not exist");
  model.kind = requiredString(entry, "kind", named);
  model.description = optionalString(entry, "description");
  model.inputShapes = readShapes(entry, named);
  model.inputValues = readValues(entry, named);
  model.source = requiredString(entry, "source", named);
  model.licence = requiredString(entry, "licence", named);
  model.sha256 = optionalString(entry, "sha256");
  model.controlFlow = controlFlow;
  return model;
}

} // namespace

onnx_io::ShapeBindings RealSuiteModel::shapeBindings() const {
  onnx_io::ShapeBindings bindings;
  bindings.inputShapes = inputShapes;
  return bindings;
}

Graph importRealSuiteModel(const RealSuiteModel& model) {
  onnx_io::BoundInputs bound;
  for (const auto& [input, value] : model.inputValues) bound[input] = Tensor::fromInts({DType::Int64, {}}, {value});
  return onnx_io::importOnnxFile(model.path, model.shapeBindings(), bound);
}

std::string realSuiteManifestPath() { return TESSERA_REAL_SUITE_MANIFEST; }

std::vector<RealSuiteModel> realSuiteModels(bool includeControlFlow, const std::string& manifest) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(readFileBytes(manifest, kMaxManifestBytes));
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(manifest, std::string("is not valid JSON: ") + e.what());
  }
  try {
    const std::filesystem::path folder = std::filesystem::path(manifest).parent_path();
    std::vector<RealSuiteModel> models;
    auto readList = [&](const char* key, bool controlFlow) {
      auto it = json.find(key);
      if (it == json.end()) return;
      if (!it->is_array()) throw Error(std::string("'") + key + "' is not a list");
      for (size_t i = 0; i < it->size(); ++i)
        models.push_back(readModel((*it)[i], folder, std::string(key) + "[" + std::to_string(i) + "]", controlFlow));
    };
    if (!json.is_object() || !json.contains("models")) throw Error("has no 'models' list");
    readList("models", false);
    if (includeControlFlow) readList("control_flow_models", true);
    return models;
  } catch (const Error& e) {
    throw errorInFile(manifest, e.what());
  }
}

RealSuiteModel realSuiteModel(const std::string& name, const std::string& manifest) {
  std::string known;
  for (RealSuiteModel& model : realSuiteModels(true, manifest)) {
    if (model.name == name) return model;
    known += (known.empty() ? "" : ", ") + model.name;
  }
  throw errorInFile(manifest, "has no model '" + name + "' (it has " + known + ")");
}

} // namespace tessera
