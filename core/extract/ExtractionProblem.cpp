// Validation and indexing of extraction problems.
#include "extract/ExtractionProblem.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>

namespace tessera::extract {

std::string ExtractionProblem::nodeName(uint32_t node) const {
  if (node < nodeNames.size()) return nodeNames[node];
  return std::to_string(node);
}

std::string ExtractionProblem::className(uint32_t eclass) const {
  if (eclass < classNames.size()) return classNames[eclass];
  return std::to_string(eclass);
}

void indexClasses(ExtractionProblem& problem) {
  uint32_t classes = 0;
  for (const ExtractionNode& node : problem.nodes) {
    classes = std::max(classes, node.eclass + 1);
    for (uint32_t child : node.children) classes = std::max(classes, child + 1);
  }
  for (uint32_t root : problem.roots) classes = std::max(classes, root + 1);
  problem.classNodes.assign(classes, {});
  for (uint32_t i = 0; i < problem.nodes.size(); ++i) problem.classNodes[problem.nodes[i].eclass].push_back(i);
}

void validateProblem(const ExtractionProblem& problem, const std::string& source) {
  const size_t classes = problem.classCount();
  if (problem.nodes.size() >= UINT32_MAX || classes >= UINT32_MAX) throw errorInFile(source, "too many nodes or classes");
  if (problem.roots.empty()) throw errorInFile(source, "no root class");
  for (uint32_t root : problem.roots)
    if (root >= classes) throw errorInFile(source, "root class " + std::to_string(root) + " does not exist");
  for (uint32_t i = 0; i < problem.nodes.size(); ++i) {
    const ExtractionNode& node = problem.nodes[i];
    if (node.eclass >= classes)
      throw errorInFile(source, "node " + problem.nodeName(i) + " names class " + std::to_string(node.eclass) + ", which does not exist");
    if (!std::isfinite(node.cost) || node.cost < 0)
      throw errorInFile(source, "node " + problem.nodeName(i) + " has cost " + std::to_string(node.cost) +
                                    " (costs must be finite and not negative)");
    for (uint32_t child : node.children)
      if (child >= classes)
        throw errorInFile(source, "node " + problem.nodeName(i) + " has child class " + std::to_string(child) + ", which does not exist");
  }
  // Every node must be listed exactly once, in its own class.
  std::vector<uint8_t> listed(problem.nodes.size(), 0);
  for (uint32_t c = 0; c < classes; ++c) {
    if (problem.classNodes[c].empty()) throw errorInFile(source, "class " + problem.className(c) + " has no nodes");
    for (uint32_t n : problem.classNodes[c]) {
      if (n >= problem.nodes.size())
        throw errorInFile(source, "class " + problem.className(c) + " lists node " + std::to_string(n) + ", which does not exist");
      if (problem.nodes[n].eclass != c)
        throw errorInFile(source, "class " + problem.className(c) + " lists node " + problem.nodeName(n) + " of another class");
      if (listed[n]++) throw errorInFile(source, "node " + problem.nodeName(n) + " is listed twice");
    }
  }
  for (uint32_t i = 0; i < problem.nodes.size(); ++i)
    if (!listed[i]) throw errorInFile(source, "node " + problem.nodeName(i) + " is not listed in its class");
}

ParentIndex parentIndex(const ExtractionProblem& problem) {
  const size_t classes = problem.classCount();
  ParentIndex index;
  index.offsets.assign(classes + 1, 0);
  // lastParent[c] == n + 1 marks that node n was already counted for class c (repeated children).
  std::vector<uint32_t> lastParent(classes, 0);
  for (uint32_t n = 0; n < problem.nodes.size(); ++n)
    for (uint32_t child : problem.nodes[n].children) {
      if (lastParent[child] == n + 1) continue;
      lastParent[child] = n + 1;
      ++index.offsets[child + 1];
    }
  for (size_t c = 0; c < classes; ++c) index.offsets[c + 1] += index.offsets[c];
  index.nodes.resize(index.offsets[classes]);
  std::vector<uint32_t> fill(index.offsets.begin(), index.offsets.end() - 1);
  std::fill(lastParent.begin(), lastParent.end(), 0);
  for (uint32_t n = 0; n < problem.nodes.size(); ++n)
    for (uint32_t child : problem.nodes[n].children) {
      if (lastParent[child] == n + 1) continue;
      lastParent[child] = n + 1;
      index.nodes[fill[child]++] = n;
    }
  return index;
}

FlatProblem flatten(const ExtractionProblem& problem) {
  const size_t nodes = problem.nodes.size();
  FlatProblem flat;
  flat.cost.resize(nodes);
  flat.eclass.resize(nodes);
  flat.childOffsets.resize(nodes + 1);
  size_t edges = 0;
  for (const ExtractionNode& node : problem.nodes) edges += node.children.size();
  flat.children.reserve(edges);
  // lastUse[c] == n + 1 marks class c as already listed for node n (repeated operands).
  std::vector<uint32_t> lastUse(problem.classCount(), 0);
  for (uint32_t n = 0; n < nodes; ++n) {
    const ExtractionNode& node = problem.nodes[n];
    flat.cost[n] = node.cost;
    flat.eclass[n] = node.eclass;
    flat.childOffsets[n] = static_cast<uint32_t>(flat.children.size());
    for (uint32_t child : node.children) {
      if (lastUse[child] == n + 1) continue;
      lastUse[child] = n + 1;
      flat.children.push_back(child);
    }
  }
  flat.childOffsets[nodes] = static_cast<uint32_t>(flat.children.size());
  return flat;
}

std::vector<uint32_t> bottomUpClassOrder(const ExtractionProblem& problem) {
  struct Frame {
    uint32_t eclass;
    uint32_t nodePos;  // position in classNodes[eclass]
    uint32_t childPos; // position in that node's children
  };
  std::vector<uint8_t> seen(problem.classCount(), 0);
  std::vector<uint32_t> order;
  std::vector<Frame> stack;
  for (uint32_t root : problem.roots) {
    if (seen[root]) continue;
    seen[root] = 1;
    stack.push_back({root, 0, 0});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const std::vector<uint32_t>& members = problem.classNodes[frame.eclass];
      if (frame.nodePos == members.size()) {
        order.push_back(frame.eclass);
        stack.pop_back();
        continue;
      }
      const std::vector<uint32_t>& children = problem.nodes[members[frame.nodePos]].children;
      if (frame.childPos == children.size()) {
        ++frame.nodePos;
        frame.childPos = 0;
        continue;
      }
      uint32_t child = children[frame.childPos++];
      if (seen[child]) continue;
      seen[child] = 1;
      stack.push_back({child, 0, 0}); // invalidates `frame`; the loop re-reads it
    }
  }
  return order;
}

std::vector<uint32_t> distinctChildren(const ExtractionNode& node) {
  std::vector<uint32_t> result;
  if (node.children.size() > 16) { // wide nodes (concat of many inputs): avoid the quadratic scan
    result = node.children;
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
  }
  result.reserve(node.children.size());
  for (uint32_t child : node.children)
    if (std::find(result.begin(), result.end(), child) == result.end()) result.push_back(child);
  return result;
}

} // namespace tessera::extract
