#include "search/CandidateSampler.h"

#include "egraph/GraphConversion.h"
#include "extract/AcyclicChoice.h"
#include "extract/Extractors.h"
#include "ir/GraphHash.h"
#include "rewrite/Runner.h"
#include "search/EGraphExtraction.h"
#include "support/Error.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace tessera {

namespace {

// One random extraction: either the cheapest under node costs scaled by log-normal noise of
// spread `sigma`, or (sigma <= 0) a random node preferred in every class, cycles broken randomly.
std::vector<int32_t> randomChoice(const extract::ExtractionProblem& problem, double sigma, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  if (sigma > 0) {
    extract::ExtractionProblem perturbed = problem;
    std::normal_distribution<double> noise(0.0, sigma);
    for (extract::ExtractionNode& node : perturbed.nodes) node.cost *= std::exp(noise(rng));
    return extract::extract(perturbed, extract::ExtractionMethod::DagGreedy).choice;
  }
  std::vector<int32_t> preferred(problem.classCount(), -1);
  for (size_t c = 0; c < problem.classCount(); ++c) {
    const auto& nodes = problem.classNodes[c];
    preferred[c] = static_cast<int32_t>(nodes[static_cast<size_t>(uniform(rng) * static_cast<double>(nodes.size())) % nodes.size()]);
  }
  std::vector<double> score(problem.nodes.size());
  for (double& s : score) s = uniform(rng);
  return extract::acyclicChoice(problem, preferred, score);
}

std::string randomLabel(size_t index, double sigma) {
  char label[64];
  if (sigma > 0)
    std::snprintf(label, sizeof label, "random %zu (costs perturbed, sigma %.2g)", index, sigma);
  else
    std::snprintf(label, sizeof label, "random %zu (random node per class)", index);
  return label;
}

} // namespace

std::vector<SampledCandidate> sampleCandidates(const Graph& original, std::span<const Rule* const> rules, CostModel& cost,
                                               const CandidateSamplerOptions& options) {
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  std::vector<SampledCandidate> candidates;
  GraphSet seen;
  auto keep = [&](std::string label, Graph graph) {
    if (candidates.size() >= options.count || !seen.insert(graph)) return;
    candidates.push_back({std::move(label), std::move(graph)});
  };
  keep("original", original);

  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, original);
  RunnerLimits limits;
  limits.nodeLimit = options.nodeLimit;
  limits.iterationLimit = options.iterationLimit;
  limits.timeLimitSeconds = options.timeLimitSeconds;
  limits.backoffMatchLimit = 1000; // eqsat's defaults, so "optimised" is what eqsat would find
  limits.multiSchedule = RunnerLimits::MultiSchedule::Late;
  const RunReport run = runSaturation(egraph, seed.outputs, rules, limits);
  say("e-graph of " + std::to_string(egraph.numNodes()) + " e-nodes (" + std::string(stopReasonName(run.stopReason)) + ")");

  ENodeCoster coster(cost);
  const EGraphProblem converted = toExtractionProblem(egraph, seed.outputs, coster);
  say("priced " + std::to_string(coster.distinctSignatures()) + " distinct op signatures");
  const extract::Extraction cheapest = extract::extract(converted.problem, extract::ExtractionMethod::DagGreedy);
  keep("optimised", graphFromProblemChoice(egraph, seed, converted, cheapest.choice));

  // Spreads from "almost the cheapest" to "anything goes", in turn.
  static constexpr double kSigmas[] = {0.25, 1.0, 0.0, 0.5, 2.0, 0.0};
  std::mt19937_64 rng(options.seed);
  const size_t attempts = options.attemptsPerCandidate * options.count;
  for (size_t attempt = 0; attempt < attempts && candidates.size() < options.count; ++attempt) {
    const double sigma = kSigmas[attempt % std::size(kSigmas)];
    try {
      std::vector<int32_t> choice = randomChoice(converted.problem, sigma, rng);
      keep(randomLabel(candidates.size(), sigma), graphFromProblemChoice(egraph, seed, converted, choice));
    } catch (const Error&) {
      continue; // a choice the graph builder refuses (a cycle through a multi-output node): try another
    }
  }
  return candidates;
}

} // namespace tessera
