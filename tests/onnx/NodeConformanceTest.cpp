// ONNX's own backend node tests (Debian's libonnx-testdata: one model per op form with inputs and
// expected outputs) through the importer and the reference interpreter. Every test must pass,
// except those listed with their reason in node_tests_expected_failures.txt; a listed test that
// starts passing, or fails for another reason than the one listed, fails the suite too, so the
// list only ever shrinks and never hides a new failure behind an old one.
//
// Tessera's IR has static shapes: a graph input that an op reads as a shape operand (Reshape's
// shape, Slice's starts, a reduction's axes, ...) is bound to its test value at import, as a
// model exported with fixed shapes would hold it; every other input is fed at run time.
//
// TESSERA_NODE_TESTS_WRITE_FAILURES=FILE writes the current failures in the list's format.
#include "interp/Interpreter.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"
#include "support/Error.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;
namespace fs = std::filesystem;

namespace {

#ifndef TESSERA_ONNX_NODE_TESTS_DIR
#define TESSERA_ONNX_NODE_TESTS_DIR "/usr/share/libonnx-testdata/data/node"
#endif

const fs::path kExpectedFailures = fs::path(TESSERA_SOURCE_DIR) / "tests/onnx/node_tests_expected_failures.txt";

// ONNX's backend runner compares with rtol 1e-3 and atol 1e-7; float32 arithmetic on tests that
// were computed in float64 or float16 needs a slightly larger absolute floor.
constexpr double kRelativeTolerance = 1e-3;
constexpr double kAbsoluteTolerance = 1e-5;

enum class Outcome { Pass, Wrong, Refused };

struct Result {
  Outcome outcome = Outcome::Pass;
  std::string detail; // why it is wrong or refused
};

std::optional<std::string> compareTensors(const Tensor& expected, const Tensor& actual) {
  if (expected.shape() != actual.shape())
    return "shape " + shapeToString(actual.shape()) + " instead of " + shapeToString(expected.shape());
  if (expected.holdsFloats() != actual.holdsFloats()) return "type " + actual.type().toString() + " instead of " + expected.type().toString();
  for (int64_t i = 0; i < expected.numel(); ++i) {
    const double want = expected.valueAt(i), got = actual.valueAt(i);
    if (std::isnan(want) && std::isnan(got)) continue;
    if (want == got) continue; // infinities
    if (std::abs(want - got) <= kAbsoluteTolerance + kRelativeTolerance * std::abs(want)) continue;
    return "element " + std::to_string(i) + " is " + std::to_string(got) + " instead of " + std::to_string(want);
  }
  return std::nullopt;
}

std::vector<fs::path> sortedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) files.push_back(entry.path());
  // input_10.pb sorts after input_9.pb
  std::sort(files.begin(), files.end(), [&](const fs::path& a, const fs::path& b) {
    auto index = [&](const fs::path& p) { return std::stoi(p.stem().string().substr(prefix.size())); };
    return index(a) < index(b);
  });
  return files;
}

// Input positions that ops read as shape operands (which the IR needs as constants).
bool isShapeOperand(const std::string& opType, int position) {
  static const std::map<std::string, std::set<int>> operands = {
      {"Reshape", {1}}, {"Expand", {1}},    {"Tile", {1}},         {"Slice", {1, 2, 3, 4}}, {"Squeeze", {1}},
      {"Unsqueeze", {1}}, {"Split", {1}},   {"Pad", {1, 2, 3}},    {"CumSum", {1}},         {"Trilu", {1}},
      {"Resize", {1, 2, 3}}, {"Upsample", {1}}, {"ConstantOfShape", {0}}, {"Range", {0, 1, 2}}, {"Dropout", {1, 2}},
      {"TopK", {1}},      {"OneHot", {1}}};
  if (opType.rfind("Reduce", 0) == 0) return position == 1;
  auto it = operands.find(opType);
  return it != operands.end() && it->second.count(position) != 0;
}

// The graph inputs (in order, without initializers) and which of them are shape operands.
std::pair<std::vector<std::string>, std::set<std::string>> graphInputs(const fs::path& model) {
  std::ifstream in(model, std::ios::binary);
  onnx::ModelProto proto;
  if (!proto.ParseFromIstream(&in)) return {};
  std::set<std::string> initializers, shapeOperands;
  for (const auto& initializer : proto.graph().initializer()) initializers.insert(initializer.name());
  for (const auto& node : proto.graph().node())
    for (int i = 0; i < node.input_size(); ++i)
      if (isShapeOperand(node.op_type(), i)) shapeOperands.insert(node.input(i));
  std::vector<std::string> inputs;
  for (const auto& input : proto.graph().input())
    if (!initializers.count(input.name())) inputs.push_back(input.name());
  return {inputs, shapeOperands};
}

Result runNodeTest(const fs::path& testDir) {
  try {
    const auto [inputNames, shapeOperands] = graphInputs(testDir / "model.onnx");
    for (const auto& entry : fs::directory_iterator(testDir)) {
      if (!entry.is_directory() || entry.path().filename().string().rfind("test_data_set_", 0) != 0) continue;
      const std::vector<fs::path> inputFiles = sortedFiles(entry.path(), "input_");
      const std::vector<fs::path> outputFiles = sortedFiles(entry.path(), "output_");
      if (inputFiles.size() != inputNames.size())
        return {Outcome::Refused, std::to_string(inputFiles.size()) + " input files for " + std::to_string(inputNames.size()) + " graph inputs"};
      TensorMap inputs;
      onnx_io::BoundInputs bound;
      for (size_t i = 0; i < inputFiles.size(); ++i)
        (shapeOperands.count(inputNames[i]) ? bound : inputs)[inputNames[i]] = onnx_io::readTensorProtoFile(inputFiles[i].string());
      const Graph graph = onnx_io::importOnnxFile((testDir / "model.onnx").string(), bound);
      const std::vector<Tensor> outputs = runGraph(graph, inputs);
      if (outputs.size() != outputFiles.size())
        return {Outcome::Wrong, std::to_string(outputs.size()) + " outputs for " + std::to_string(outputFiles.size()) + " expected"};
      for (size_t i = 0; i < outputs.size(); ++i) {
        const Tensor expected = onnx_io::readTensorProtoFile(outputFiles[i].string());
        if (auto problem = compareTensors(expected, outputs[i]))
          return {Outcome::Wrong, entry.path().filename().string() + " output " + std::to_string(i) + ": " + *problem};
      }
    }
  } catch (const Error& e) {
    return {Outcome::Refused, e.what()};
  }
  return {};
}

// "test_name: reason" per line; '#' starts a comment.
std::map<std::string, std::string> readExpectedFailures() {
  std::map<std::string, std::string> listed;
  std::ifstream in(kExpectedFailures);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    // "name: reason": the reason starts after the one space the list writes after the colon.
    std::string reason = colon == std::string::npos ? "" : line.substr(colon + 1);
    if (!reason.empty() && reason[0] == ' ') reason.erase(0, 1);
    listed[line.substr(0, colon)] = reason;
  }
  return listed;
}

// The message without the file name the importer puts first, on one line.
std::string shortReason(const fs::path& testDir, std::string message) {
  const std::string file = (testDir / "model.onnx").string() + ": ";
  if (message.rfind(file, 0) == 0) message.erase(0, file.size());
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

} // namespace

TEST(OnnxNodeTests, PassOrAreListedWithTheirReason) {
  const fs::path root = TESSERA_ONNX_NODE_TESTS_DIR;
  ASSERT_TRUE(fs::is_directory(root)) << root << " is missing: install Debian's libonnx-testdata (.ci/install-deps.sh does)";
  ASSERT_TRUE(fs::is_regular_file(kExpectedFailures)) << kExpectedFailures;
  std::vector<fs::path> tests;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory() && fs::is_regular_file(entry.path() / "model.onnx")) tests.push_back(entry.path());
  std::sort(tests.begin(), tests.end());
  ASSERT_GT(tests.size(), 900u);

  std::map<std::string, std::string> listed = readExpectedFailures();
  std::ostringstream failures;
  size_t passed = 0, wrong = 0, refused = 0;
  for (const fs::path& testDir : tests) {
    const std::string name = testDir.filename().string();
    const Result result = runNodeTest(testDir);
    auto entry = listed.find(name);
    const bool isListed = entry != listed.end();
    const std::string listedReason = isListed ? entry->second : std::string();
    if (isListed) listed.erase(entry);
    if (result.outcome == Outcome::Pass) {
      ++passed;
      EXPECT_FALSE(isListed) << name << " passes now: remove it from " << kExpectedFailures.filename();
      continue;
    }
    ++(result.outcome == Outcome::Wrong ? wrong : refused);
    const std::string reason = (result.outcome == Outcome::Wrong ? "wrong: " : "") + shortReason(testDir, result.detail);
    failures << name << ": " << reason << "\n";
    EXPECT_TRUE(isListed) << name << " fails and is not listed: " << reason;
    // A listed failure must still fail for its listed reason: a test refused as unsupported that
    // starts computing wrong results is a new bug, not an old limitation.
    if (isListed) {
      EXPECT_EQ(listedReason, reason) << name << " fails for another reason than " << kExpectedFailures.filename() << " lists";
    }
  }
  for (const auto& [name, reason] : listed) ADD_FAILURE() << name << " is listed but is not a node test";
  std::printf("[ node     ] %zu tests: %zu pass, %zu wrong, %zu refused\n", tests.size(), passed, wrong, refused);

  if (const char* path = std::getenv("TESSERA_NODE_TESTS_WRITE_FAILURES")) {
    std::ofstream out(path);
    out << failures.str();
  }
}
