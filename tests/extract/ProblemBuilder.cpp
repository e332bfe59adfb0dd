// Random extraction problems and the exhaustive optimum used as ground truth.
#include "ProblemBuilder.h"

#include "extract/Extraction.h"

namespace tessera::extract::test {

ExtractionProblem randomProblem(std::mt19937& rng, const RandomProblemShape& shape) {
  ProblemBuilder builder;
  for (uint32_t c = 0; c < shape.classes; ++c) builder.addClass();
  std::uniform_int_distribution<int> cost(0, shape.maxCost);
  std::uniform_real_distribution<double> unit(0, 1);
  for (uint32_t c = 0; c < shape.classes; ++c) {
    uint32_t nodes = std::uniform_int_distribution<uint32_t>(1, shape.maxNodesPerClass)(rng);
    for (uint32_t k = 0; k < nodes; ++k) {
      ExtractionNode node{"n" + std::to_string(c) + "_" + std::to_string(k), double(cost(rng)), c, {}};
      uint32_t children = std::uniform_int_distribution<uint32_t>(0, shape.maxChildren)(rng);
      for (uint32_t i = 0; i < children; ++i) {
        if (unit(rng) < shape.backEdgeProbability) {
          node.children.push_back(std::uniform_int_distribution<uint32_t>(0, shape.classes - 1)(rng));
          continue;
        }
        if (c + 1 >= shape.classes) break;
        node.children.push_back(std::uniform_int_distribution<uint32_t>(c + 1, shape.classes - 1)(rng));
      }
      builder.addNode(c, node.cost, node.children, node.op);
    }
  }
  builder.addRoot(0);
  return builder.build();
}

ExtractionProblem layeredProblem(std::mt19937& rng, uint32_t layers) {
  ProblemBuilder builder;
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::vector<uint32_t>> inputs(layers);
  std::vector<double> opCost(layers, 0);
  for (uint32_t i = 0; i < layers; ++i) builder.addClass();
  builder.addNode(0, 0); // the network input
  for (uint32_t i = 1; i < layers; ++i) {
    inputs[i] = {i - 1};
    if (i > 2 && unit(rng) < 0.4) inputs[i].push_back(std::uniform_int_distribution<uint32_t>(i > 12 ? i - 12 : 0, i - 2)(rng));
    opCost[i] = 0.5 + unit(rng);
    builder.addNode(i, opCost[i], inputs[i]);
  }
  for (uint32_t i = 1; i < layers; ++i) {
    for (int alternative = 0; alternative < 2; ++alternative) {
      if (unit(rng) >= 0.5) continue;
      std::vector<uint32_t> children = inputs[i];
      size_t skipped = std::uniform_int_distribution<size_t>(0, children.size() - 1)(rng);
      uint32_t fused = children[skipped];
      children.erase(children.begin() + static_cast<long>(skipped));
      children.insert(children.end(), inputs[fused].begin(), inputs[fused].end());
      if (children.empty()) continue;
      builder.addNode(i, (opCost[i] + opCost[fused]) * (0.6 + 0.55 * unit(rng)), children);
    }
  }
  builder.addRoot(layers - 1);
  return builder.build();
}

BruteForceResult bruteForceOptimum(const ExtractionProblem& problem) {
  BruteForceResult best;
  const size_t classes = problem.classCount();
  std::vector<size_t> position(classes, 0);
  std::vector<int32_t> choice(classes);
  while (true) {
    for (size_t c = 0; c < classes; ++c) choice[c] = static_cast<int32_t>(problem.classNodes[c][position[c]]);
    if (isValidChoice(problem, choice)) {
      double cost = dagCost(problem, choice);
      if (cost < best.cost) {
        best.cost = cost;
        best.choice = restrictToReachable(problem, choice);
      }
    }
    size_t c = 0;
    while (c < classes && ++position[c] == problem.classNodes[c].size()) position[c++] = 0;
    if (c == classes) break;
  }
  return best;
}

} // namespace tessera::extract::test
