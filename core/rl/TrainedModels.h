// Which models an agent was trained on, kept in its checkpoint so that a figure on a model can say
// whether it is in-sample. Labels depend on the other models of a command line ("bert" alone,
// "tensat/bert" beside samples/bert.onnx), so a model is recognised by its structural hash, blind
// to the names of its inputs and weights, which no agent reads.
#pragma once

#include "rl/CheckpointFile.h"
#include "rl/GraphEpisodes.h"

#include <optional>
#include <span>
#include <string>

namespace tessera {

// The model's structural hash (ir/GraphHash.h, leaves by type alone) as 16 hex digits.
std::string modelHash(const Graph& graph);

// Sets the header's models (labels) and their hashes.
void recordTrainedModels(CheckpointHeader& header, std::span<const NamedGraph> models);

// Whether the checkpoint's agent was trained on `graph`; unknown (nullopt) for checkpoints that
// kept no hashes, whose labels are all there is.
std::optional<bool> wasTrainedOn(const CheckpointHeader& header, const Graph& graph);

// What a run's log says of wasTrainedOn's answer: "this model is in its training set (in-sample)",
// "… is not … (held out)", or that the checkpoint cannot tell.
std::string trainingSetVerdict(std::optional<bool> trained);

} // namespace tessera
