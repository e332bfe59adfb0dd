// Left-hand sides taken from the models themselves (issue #32). TASO's generator enumerates every
// graph over its op set; over the op variants of real exports (each conv's kernel, strides and
// pads, each transpose's perm, each constant) that product is too large to finish, and nearly all
// of it never occurs in a model. Mining takes instead every tree of up to N ops rooted at a model
// node, its leaves cut at model values, with the model's own attribute values, and renames its
// inputs to synthesis variables (activations and weights by rank, conv kernels by size, scalar
// constants as literals or `#?s`). Each distinct tree is a left-hand side; the enumeration over the
// vocabulary supplies the right-hand sides that share its fingerprint. A rule so found matches the
// model it was mined from by construction.
#pragma once

#include "ir/Graph.h"
#include "synth/SynthVocabulary.h"

#include <span>
#include <string>

namespace tessera::synth {

// The op variant a model node is mined as (its attributes written out, defaults included, so a
// pattern pins them), or nullopt when mining leaves the node out (shape inputs, indices, control
// flow, more than four operands).
std::optional<SynthOp> minedOpFor(const Graph& graph, const Node& node);

// Mines trees of up to `maxOps` ops from every model into `vocabulary.patterns` (their ops are
// added to `vocabulary.ops`; the variables must already be there) and counts into
// `vocabulary.mining`. Stops at `maxPatterns` distinct patterns with a reason.
void mineModelPatterns(std::span<const Graph* const> models, std::span<const std::string> modelNames, SynthVocabulary& vocabulary,
                       int maxOps, uint64_t maxPatterns);

} // namespace tessera::synth
