// Trace serialisation to and from JSON, and as readable text.
#include "tune/Trace.h"

#include "support/Error.h"
#include "support/JsonCount.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <type_traits>
#include <utility>

namespace tessera::tune {

namespace {

constexpr std::array<std::pair<InstructionKind, const char*>, 12> kNames{{
    {InstructionKind::SamplePerfectTile, "SamplePerfectTile"},
    {InstructionKind::SampleCategorical, "SampleCategorical"},
    {InstructionKind::Split, "Split"},
    {InstructionKind::Reorder, "Reorder"},
    {InstructionKind::CacheWrite, "CacheWrite"},
    {InstructionKind::ComputeEpilogueAt, "ComputeEpilogueAt"},
    {InstructionKind::RegisterTile, "RegisterTile"},
    {InstructionKind::Parallel, "Parallel"},
    {InstructionKind::Vectorize, "Vectorize"},
    {InstructionKind::Unroll, "Unroll"},
    {InstructionKind::Bind, "Bind"},
    {InstructionKind::CacheReadShared, "CacheReadShared"},
}};

constexpr int kTraceVersion = 1;

template <class T> std::vector<T> listOf(const nlohmann::json& object, const char* key, size_t index) {
  if (!object.contains(key)) return {};
  const nlohmann::json& value = object.at(key);
  if (!value.is_array()) throw Error("trace: instruction " + std::to_string(index) + ": '" + key + "' is not a list");
  if constexpr (std::is_integral_v<T>) {
    // A float or an integer beyond T is refused, not cast (a float cast out of range is undefined; fuzz_tuning_trace).
    for (const nlohmann::json& element : value) {
      if (!jsonIntegerFits<T>(element)) throw Error("trace: instruction " + std::to_string(index) + ": '" + key + "' has " + element.dump() + ", not an integer");
    }
  }
  try {
    return value.get<std::vector<T>>();
  } catch (const nlohmann::json::exception&) {
    throw Error("trace: instruction " + std::to_string(index) + ": '" + key + "' has an element of the wrong type");
  }
}

} // namespace

const char* instructionName(InstructionKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "?";
}

std::optional<InstructionKind> instructionKind(std::string_view name) {
  for (const auto& [k, n] : kNames)
    if (name == n) return k;
  return std::nullopt;
}

std::vector<size_t> Trace::samplingInstructions() const {
  std::vector<size_t> indices;
  for (size_t i = 0; i < instructions.size(); ++i)
    if (instructions[i].isSampling()) indices.push_back(i);
  return indices;
}

std::string traceToJson(const Trace& trace) {
  nlohmann::json instructions = nlohmann::json::array();
  for (const Instruction& instruction : trace.instructions) {
    nlohmann::json item{{"kind", instructionName(instruction.kind)}};
    if (!instruction.loops.empty()) item["loops"] = instruction.loops;
    if (!instruction.inputs.empty()) item["inputs"] = instruction.inputs;
    if (!instruction.attrs.empty()) item["attrs"] = instruction.attrs;
    if (!instruction.weights.empty()) item["weights"] = instruction.weights;
    if (!instruction.output.empty()) item["output"] = instruction.output;
    if (!instruction.decision.empty()) item["decision"] = instruction.decision;
    instructions.push_back(std::move(item));
  }
  nlohmann::json json{{"version", kTraceVersion}, {"workload", trace.workload}, {"instructions", std::move(instructions)}};
  return json.dump();
}

Trace traceFromJson(std::string_view text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) throw Error("trace: not valid JSON");
  if (!json.is_object()) throw Error("trace: not a JSON object");
  if (!json.contains("version") || !json["version"].is_number_integer()) throw Error("trace: no integer 'version'");
  if (json["version"].get<int>() > kTraceVersion)
    throw Error("trace: version " + std::to_string(json["version"].get<int>()) + " is newer than this Tessera reads (" +
                std::to_string(kTraceVersion) + ")");
  if (!json.contains("workload") || !json["workload"].is_string()) throw Error("trace: no 'workload' string");
  if (!json.contains("instructions") || !json["instructions"].is_array()) throw Error("trace: no 'instructions' list");
  Trace trace;
  trace.workload = json["workload"].get<std::string>();
  size_t index = 0;
  for (const nlohmann::json& item : json["instructions"]) {
    if (!item.is_object() || !item.contains("kind") || !item["kind"].is_string())
      throw Error("trace: instruction " + std::to_string(index) + " has no 'kind'");
    std::optional<InstructionKind> kind = instructionKind(item["kind"].get<std::string>());
    if (!kind) throw Error("trace: instruction " + std::to_string(index) + ": unknown kind '" + item["kind"].get<std::string>() + "'");
    Instruction instruction;
    instruction.kind = *kind;
    instruction.loops = listOf<std::string>(item, "loops", index);
    instruction.inputs = listOf<std::string>(item, "inputs", index);
    instruction.attrs = listOf<int64_t>(item, "attrs", index);
    instruction.weights = listOf<double>(item, "weights", index);
    instruction.decision = listOf<int64_t>(item, "decision", index);
    if (item.contains("output")) {
      if (!item["output"].is_string()) throw Error("trace: instruction " + std::to_string(index) + ": 'output' is not a string");
      instruction.output = item["output"].get<std::string>();
    }
    trace.instructions.push_back(std::move(instruction));
    ++index;
  }
  return trace;
}

namespace {

std::string joined(const std::vector<int64_t>& values) {
  std::string text;
  for (int64_t v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

} // namespace

std::string traceToText(const Trace& trace) {
  // What each random variable took, so an instruction that reads one shows the value too.
  std::map<std::string, std::string> values;
  auto input = [&](const Instruction& instruction, const char* role) {
    if (instruction.inputs.empty()) return std::string(role) + " ?";
    const std::string& variable = instruction.inputs.front();
    auto value = values.find(variable);
    return std::string(role) + " " + variable + (value != values.end() ? " = " + value->second : std::string());
  };
  std::string text;
  for (const Instruction& instruction : trace.instructions) {
    std::string line;
    const std::string loop = instruction.loops.empty() ? std::string("?") : instruction.loops.front();
    switch (instruction.kind) {
    case InstructionKind::SamplePerfectTile: {
      const std::string decision = "[" + joined(instruction.decision) + "]";
      values[instruction.output] = decision;
      line = instruction.output + " = " + decision + " by SamplePerfectTile(" + loop + ", " +
             (instruction.attrs.empty() ? std::string("?") : std::to_string(instruction.attrs[0])) + " parts" +
             (instruction.attrs.size() > 1 ? ", innermost <= " + std::to_string(instruction.attrs[1]) : std::string()) + ")";
      break;
    }
    case InstructionKind::SampleCategorical: {
      std::string decision = "?";
      if (!instruction.decision.empty() && instruction.decision[0] >= 0 &&
          static_cast<size_t>(instruction.decision[0]) < instruction.attrs.size())
        decision = std::to_string(instruction.attrs[static_cast<size_t>(instruction.decision[0])]);
      values[instruction.output] = decision;
      line = instruction.output + " = " + decision + " by SampleCategorical(" + joined(instruction.attrs) + ")";
      break;
    }
    case InstructionKind::Split: line = "Split(" + loop + ", " + input(instruction, "factors") + ")"; break;
    case InstructionKind::Reorder: line = "Reorder(" + joined(instruction.loops) + ")"; break;
    case InstructionKind::CacheWrite: line = "CacheWrite(" + input(instruction, "loops outside") + ")"; break;
    case InstructionKind::ComputeEpilogueAt: line = "ComputeEpilogueAt(" + input(instruction, "inline") + ")"; break;
    case InstructionKind::RegisterTile: line = "RegisterTile(" + input(instruction, "loops outside") + ")"; break;
    case InstructionKind::Parallel:
    case InstructionKind::Vectorize:
      line = std::string(instructionName(instruction.kind)) + "(max extent " +
             (instruction.attrs.empty() ? std::string("?") : std::to_string(instruction.attrs[0])) + ")";
      break;
    case InstructionKind::Unroll:
      line = "Unroll(" + input(instruction, "max steps") +
             (instruction.attrs.empty() ? std::string() : ", vector lanes " + std::to_string(instruction.attrs[0])) + ")";
      break;
    case InstructionKind::Bind: {
      static const char* const threadAxes[] = {"blockIdx.x", "vthread.x", "threadIdx.x"};
      const int64_t axis = instruction.attrs.empty() ? -1 : instruction.attrs[0];
      line = "Bind(" + joined(instruction.loops) + " to " + (axis >= 0 && axis < 3 ? threadAxes[axis] : "?") + ")";
      break;
    }
    case InstructionKind::CacheReadShared: {
      const int64_t buffer = instruction.attrs.empty() ? -1 : instruction.attrs[0];
      line = std::string("CacheReadShared(") + (buffer == 0 ? "lhs" : buffer == 1 ? "rhs" : "?") + ", " +
             input(instruction, "vector length") + ")";
      break;
    }
    }
    text += line + "\n";
  }
  return text;
}

} // namespace tessera::tune
