#include "rl/TrainedModels.h"

#include "ir/GraphHash.h"

#include <algorithm>
#include <cstdio>

namespace tessera {

std::string modelHash(const Graph& graph) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(structuralHash(graph, LeafIdentity::TypeOnly)));
  return digits;
}

void recordTrainedModels(CheckpointHeader& header, std::span<const NamedGraph> models) {
  header.models.clear();
  header.modelHashes.clear();
  for (const NamedGraph& model : models) {
    header.models.push_back(model.name);
    header.modelHashes.push_back(modelHash(model.graph));
  }
}

std::optional<bool> wasTrainedOn(const CheckpointHeader& header, const Graph& graph) {
  if (header.modelHashes.empty()) return std::nullopt;
  return std::find(header.modelHashes.begin(), header.modelHashes.end(), modelHash(graph)) != header.modelHashes.end();
}

std::string trainingSetVerdict(std::optional<bool> trained) {
  if (!trained) return "the checkpoint does not say whether this model was in its training set";
  return *trained ? "this model is in its training set (in-sample)" : "this model is not in its training set (held out)";
}

} // namespace tessera
