// egraph-serialize JSON reader and writer (nlohmann-json), strict about every field it uses.
#include "extract/EGraphJson.h"

#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace tessera::extract {

namespace {

using nlohmann::json;

// egraph-serialize files nest four levels deep; refusing deep nesting up front keeps hostile input
// from exhausting the stack in json's recursive value handling.
constexpr int kMaxNesting = 32;

void checkNesting(const std::string& text, const std::string& source) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (inString) {
      if (ch == '\\') ++i;
      else if (ch == '"') inString = false;
      continue;
    }
    if (ch == '"') inString = true;
    else if (ch == '{' || ch == '[') {
      if (++depth > kMaxNesting) throw errorInFile(source, "malformed JSON: nested deeper than " + std::to_string(kMaxNesting) + " levels");
    } else if (ch == '}' || ch == ']') --depth;
  }
}

const char* typeName(const json& value) { return value.type_name(); }

const json& field(const json& object, const char* name, const std::string& source, const std::string& owner) {
  auto it = object.find(name);
  if (it == object.end()) throw errorInFile(source, owner + " has no \"" + name + "\"");
  return *it;
}

std::string idString(const json& value, const std::string& source, const std::string& what) {
  if (!value.is_string()) throw errorInFile(source, what + " must be a string, not " + typeName(value));
  return value.get<std::string>();
}

} // namespace

ExtractionProblem parseEGraphJson(const std::string& text, const std::string& source) {
  checkNesting(text, source);
  json document;
  try {
    document = json::parse(text);
  } catch (const json::exception& e) {
    throw errorInFile(source, std::string("malformed JSON: ") + e.what());
  }
  if (!document.is_object()) throw errorInFile(source, std::string("expected a JSON object, found ") + typeName(document));
  const json& nodes = field(document, "nodes", source, "the file");
  if (!nodes.is_object()) throw errorInFile(source, std::string("\"nodes\" must be an object, not ") + typeName(nodes));

  ExtractionProblem problem;
  std::unordered_map<std::string, uint32_t> classIndex;
  std::unordered_map<std::string, uint32_t> classOfNodeId; // every node, subsumed ones included
  std::vector<const json*> childLists;
  auto classFor = [&](const std::string& name) {
    auto [it, inserted] = classIndex.try_emplace(name, static_cast<uint32_t>(problem.classNames.size()));
    if (inserted) problem.classNames.push_back(name);
    return it->second;
  };

  for (const auto& [id, value] : nodes.items()) {
    const std::string owner = "node \"" + id + "\"";
    if (!value.is_object()) throw errorInFile(source, owner + " must be an object, not " + typeName(value));
    const json& op = field(value, "op", source, owner);
    if (!op.is_string()) throw errorInFile(source, owner + ": \"op\" must be a string, not " + typeName(op));
    const json& cost = field(value, "cost", source, owner);
    if (!cost.is_number()) throw errorInFile(source, owner + ": \"cost\" must be a number, not " + typeName(cost));
    double costValue = cost.get<double>();
    if (!std::isfinite(costValue) || costValue < 0)
      throw errorInFile(source, owner + ": \"cost\" must be finite and not negative (" + cost.dump() + ")");
    uint32_t eclass = classFor(idString(field(value, "eclass", source, owner), source, owner + ": \"eclass\""));
    const json& children = field(value, "children", source, owner);
    if (!children.is_array()) throw errorInFile(source, owner + ": \"children\" must be an array, not " + typeName(children));
    bool subsumed = false;
    if (auto it = value.find("subsumed"); it != value.end()) {
      if (!it->is_boolean()) throw errorInFile(source, owner + ": \"subsumed\" must be true or false");
      subsumed = it->get<bool>();
    }
    classOfNodeId.emplace(id, eclass);
    if (subsumed) continue;
    problem.nodes.push_back({op.get<std::string>(), costValue, eclass, {}});
    problem.nodeNames.push_back(id);
    childLists.push_back(&children);
  }

  for (uint32_t n = 0; n < problem.nodes.size(); ++n) {
    for (const json& child : *childLists[n]) {
      std::string childId = idString(child, source, "node \"" + problem.nodeNames[n] + "\": a child id");
      auto it = classOfNodeId.find(childId);
      if (it == classOfNodeId.end())
        throw errorInFile(source, "node \"" + problem.nodeNames[n] + "\" has child \"" + childId + "\", which is not a node");
      problem.nodes[n].children.push_back(it->second);
    }
  }

  problem.classNodes.assign(problem.classNames.size(), {});
  for (uint32_t n = 0; n < problem.nodes.size(); ++n) problem.classNodes[problem.nodes[n].eclass].push_back(n);
  for (uint32_t c = 0; c < problem.classNodes.size(); ++c)
    if (problem.classNodes[c].empty())
      throw errorInFile(source, "class \"" + problem.classNames[c] + "\" has no nodes (all are subsumed)");

  if (auto it = document.find("class_data"); it != document.end()) {
    if (!it->is_object()) throw errorInFile(source, std::string("\"class_data\" must be an object, not ") + typeName(*it));
    for (const auto& [name, data] : it->items())
      if (!classIndex.count(name)) throw errorInFile(source, "class \"" + name + "\" in \"class_data\" has no nodes");
  }

  const json& roots = field(document, "root_eclasses", source, "the file");
  if (!roots.is_array()) throw errorInFile(source, std::string("\"root_eclasses\" must be an array, not ") + typeName(roots));
  if (roots.empty()) throw errorInFile(source, "\"root_eclasses\" is empty: nothing to extract");
  for (const json& root : roots) {
    std::string name = idString(root, source, "a root class id");
    auto it = classIndex.find(name);
    if (it == classIndex.end()) throw errorInFile(source, "root class \"" + name + "\" has no nodes");
    problem.roots.push_back(it->second);
  }
  validateProblem(problem, source);
  return problem;
}

ExtractionProblem readEGraphJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw errorInFile(path, "cannot open for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw errorInFile(path, "read failed");
  return parseEGraphJson(text.str(), path);
}

void writeEGraphJson(const ExtractionProblem& problem, const std::string& path) {
  validateProblem(problem, path);
  json nodes = json::object();
  for (uint32_t n = 0; n < problem.nodes.size(); ++n) {
    const ExtractionNode& node = problem.nodes[n];
    json children = json::array();
    for (uint32_t child : node.children) children.push_back(problem.nodeName(problem.classNodes[child].front()));
    nodes[problem.nodeName(n)] = {{"op", node.op}, {"cost", node.cost}, {"eclass", problem.className(node.eclass)},
                                  {"children", std::move(children)}};
  }
  if (nodes.size() != problem.nodes.size()) throw errorInFile(path, "two nodes share one name");
  json roots = json::array();
  for (uint32_t root : problem.roots) roots.push_back(problem.className(root));
  json document = {{"nodes", std::move(nodes)}, {"root_eclasses", std::move(roots)}};

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, "cannot open for writing");
  out << document.dump(2) << '\n';
  if (!out) throw errorInFile(path, "write failed");
}

} // namespace tessera::extract
