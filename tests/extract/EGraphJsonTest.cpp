// The egraph-serialize reader and writer: the real TENSAT VGG e-graph, round trips, one clear error
// per kind of bad file, and no crash on thousands of corrupted variants of a real file.
#include "ProblemBuilder.h"

#include "extract/EGraphJson.h"
#include "extract/Extraction.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>
#include <algorithm>

using namespace tessera;
using namespace tessera::extract;

namespace {

const std::string kVgg = std::string(TESSERA_SHARED_DIR) + "/reference/extraction-gym/vgg_acyclic.json";

std::string tempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tessera-extract-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string writeText(const std::string& name, const std::string& text) {
  std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A valid two-node file with one field replaced, for the error cases.
std::string twoNodes(const std::string& leafNode, const std::string& roots = R"(["r"])") {
  return R"({"nodes": {"top": {"op": "relu", "cost": 1.5, "eclass": "r", "children": ["leaf"]},
                       "leaf": )" + leafNode + R"(}, "root_eclasses": )" + roots + "}";
}
const std::string kGoodLeaf = R"({"op": "x", "cost": 0, "eclass": "x", "children": []})";

} // namespace

TEST(EGraphJson, ReadsTheTensatVggEGraph) {
  ExtractionProblem problem = readEGraphJson(kVgg);
  EXPECT_EQ(problem.nodes.size(), 112u);
  EXPECT_EQ(problem.classCount(), 96u);
  ASSERT_EQ(problem.roots.size(), 1u);
  EXPECT_EQ(problem.className(problem.roots[0]), "95");
  size_t twoNodeClasses = 0;
  for (const auto& members : problem.classNodes) twoNodeClasses += members.size() == 2;
  EXPECT_EQ(twoNodeClasses, 16u);
  // Spot-check one node against the file: "26__0" is a Conv2d in class 26 with 6 children.
  auto it = std::find(problem.nodeNames.begin(), problem.nodeNames.end(), "26__0");
  ASSERT_NE(it, problem.nodeNames.end());
  const ExtractionNode& conv = problem.nodes[it - problem.nodeNames.begin()];
  EXPECT_EQ(conv.op, "Conv2d([1; 1; 0; 12; 22; 24])");
  EXPECT_DOUBLE_EQ(conv.cost, 0.11795199662446976);
  EXPECT_EQ(problem.className(conv.eclass), "26");
  ASSERT_EQ(conv.children.size(), 6u);
  EXPECT_EQ(problem.className(conv.children[0]), "1");
  EXPECT_EQ(problem.className(conv.children[2]), "0");
}

TEST(EGraphJson, RoundTripKeepsTheProblem) {
  ExtractionProblem original = readEGraphJson(kVgg);
  std::string path = tempPath("roundtrip.json");
  writeEGraphJson(original, path);
  ExtractionProblem again = readEGraphJson(path);
  ASSERT_EQ(again.nodes.size(), original.nodes.size());
  ASSERT_EQ(again.classCount(), original.classCount());
  for (uint32_t n = 0; n < original.nodes.size(); ++n) {
    ASSERT_EQ(again.nodeNames[n], original.nodeNames[n]); // both in key order
    const ExtractionNode &a = original.nodes[n], &b = again.nodes[n];
    EXPECT_EQ(a.op, b.op);
    EXPECT_EQ(a.cost, b.cost); // exact: doubles are written with round-trip precision
    EXPECT_EQ(original.className(a.eclass), again.className(b.eclass));
    ASSERT_EQ(a.children.size(), b.children.size());
    for (size_t i = 0; i < a.children.size(); ++i)
      EXPECT_EQ(original.className(a.children[i]), again.className(b.children[i]));
  }
  EXPECT_EQ(again.className(again.roots[0]), "95");
}

TEST(EGraphJson, WritesUnnamedProblems) {
  test::ProblemBuilder b;
  uint32_t r = b.addClass(), x = b.addClass();
  b.addNode(r, 2.25, {x, x}, "mul");
  b.addNode(x, 0, {}, "x");
  b.addRoot(r);
  std::string path = tempPath("unnamed.json");
  writeEGraphJson(b.build(), path);
  ExtractionProblem back = readEGraphJson(path);
  ASSERT_EQ(back.nodes.size(), 2u);
  EXPECT_EQ(back.nodes[0].op, "mul");
  EXPECT_EQ(back.nodes[0].children, (std::vector<uint32_t>{back.nodes[1].eclass, back.nodes[1].eclass}));
  EXPECT_DOUBLE_EQ(back.nodes[0].cost, 2.25);
}

TEST(EGraphJson, SubsumedNodesAreNotExtractableButStillNameTheirClass) {
  std::string text = R"({"nodes": {
      "a": {"op": "f", "cost": 1, "eclass": "A", "children": ["x2"]},
      "x1": {"op": "x", "cost": 3, "eclass": "X", "children": []},
      "x2": {"op": "y", "cost": 0, "eclass": "X", "children": [], "subsumed": true}},
    "root_eclasses": ["A"]})";
  ExtractionProblem problem = parseEGraphJson(text, "mem.json");
  ASSERT_EQ(problem.nodes.size(), 2u);
  EXPECT_EQ(problem.className(problem.nodes[0].children[0]), "X");
  EXPECT_DOUBLE_EQ(problem.nodes[problem.classNodes[problem.nodes[0].children[0]][0]].cost, 3);
}

TEST(EGraphJson, EachKindOfBadFileGivesAnErrorNamingTheFileAndTheProblem) {
  struct Case {
    std::string name, text, mentions;
  };
  const std::vector<Case> cases = {
      {"empty", "", "malformed JSON"},
      {"truncated", readText(kVgg).substr(0, 500), "malformed JSON"},
      {"array", "[1, 2]", "expected a JSON object"},
      {"no-nodes", R"({"root_eclasses": ["r"]})", "\"nodes\""},
      {"nodes-array", R"({"nodes": [], "root_eclasses": ["r"]})", "\"nodes\" must be an object"},
      {"node-number", twoNodes("7"), "node \"leaf\" must be an object"},
      {"no-op", twoNodes(R"({"cost": 0, "eclass": "x", "children": []})"), "node \"leaf\" has no \"op\""},
      {"no-cost", twoNodes(R"({"op": "x", "eclass": "x", "children": []})"), "node \"leaf\" has no \"cost\""},
      {"no-eclass", twoNodes(R"({"op": "x", "cost": 0, "children": []})"), "node \"leaf\" has no \"eclass\""},
      {"no-children", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x"})"), "node \"leaf\" has no \"children\""},
      {"cost-string", twoNodes(R"({"op": "x", "cost": "cheap", "eclass": "x", "children": []})"), "\"cost\" must be a number"},
      {"cost-negative", twoNodes(R"({"op": "x", "cost": -2, "eclass": "x", "children": []})"), "not negative"},
      {"cost-overflow", twoNodes(R"({"op": "x", "cost": 1e999, "eclass": "x", "children": []})"), "number overflow"},
      {"op-number", twoNodes(R"({"op": 3, "cost": 0, "eclass": "x", "children": []})"), "\"op\" must be a string"},
      {"eclass-number", twoNodes(R"({"op": "x", "cost": 0, "eclass": 4, "children": []})"), "\"eclass\" must be a string"},
      {"children-object", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x", "children": {}})"), "\"children\" must be an array"},
      {"child-number", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x", "children": [1]})"), "child id must be a string"},
      {"dangling-child", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x", "children": ["ghost"]})"),
       "node \"leaf\" has child \"ghost\", which is not a node"},
      {"subsumed-string", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x", "children": [], "subsumed": "yes"})"),
       "\"subsumed\""},
      {"empty-class", twoNodes(R"({"op": "x", "cost": 0, "eclass": "x", "children": [], "subsumed": true})"),
       "class \"x\" has no nodes"},
      {"unknown-root", twoNodes(kGoodLeaf, R"(["nowhere"])"), "root class \"nowhere\" has no nodes"},
      {"empty-roots", twoNodes(kGoodLeaf, "[]"), "nothing to extract"},
      {"root-number", twoNodes(kGoodLeaf, "[5]"), "root class id must be a string"},
      {"roots-string", twoNodes(kGoodLeaf, R"("r")"), "\"root_eclasses\" must be an array"},
      {"no-roots", R"({"nodes": {"leaf": )" + kGoodLeaf + "}}", "\"root_eclasses\""},
      {"class-data-unknown", R"({"nodes": {"leaf": )" + kGoodLeaf + R"(}, "root_eclasses": ["x"],
          "class_data": {"zzz": {}}})", "class \"zzz\" in \"class_data\" has no nodes"},
      {"deep", std::string(100000, '[') + std::string(100000, ']'), "nested deeper"},
      {"bad-utf8", R"({"nodes": {"a\xff": )" + kGoodLeaf + R"(}, "root_eclasses": ["x"]})", "malformed JSON"},
  };
  for (const Case& c : cases) {
    std::string path = writeText("bad-" + c.name + ".json", c.text);
    try {
      readEGraphJson(path);
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const Error& e) {
      std::string message = e.what();
      EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << c.name << ": " << message;
      EXPECT_NE(message.find(c.mentions), std::string::npos) << c.name << ": " << message;
    }
  }
}

TEST(EGraphJson, AMissingFileIsAnErrorNamingIt) {
  std::string path = tempPath("does-not-exist.json");
  try {
    readEGraphJson(path);
    FAIL() << "read a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
}

TEST(EGraphJson, CorruptedCopiesOfARealFileNeverCrash) {
  const std::string original = readText(kVgg);
  ASSERT_GT(original.size(), 10000u);
  std::mt19937 rng(1);
  const std::string alphabet = "{}[]\",:0123456789.-eE \\ntruefalsnul_x";
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    std::string text = original;
    int edits = 1 + trial % 4;
    for (int e = 0; e < edits; ++e) {
      size_t at = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
      switch (rng() % 3) {
      case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
      case 1: text.erase(at, 1 + rng() % 40); break;
      default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    try {
      ExtractionProblem problem = parseEGraphJson(text, "fuzz.json");
      validateProblem(problem); // what was accepted must be a well-formed problem
      ++accepted;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("fuzz.json: ", 0), 0u) << e.what();
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 500);
  EXPECT_GT(accepted, 10); // edits inside op strings or costs keep the file valid
}
