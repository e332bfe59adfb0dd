// RLFlow as a search strategy: a trained controller rewrites the model one (rule, location) at a
// time in the real environment, argmax, on the encoder's z of each real state (the world model is
// not used at inference), leaving out rewrites back to a graph already visited, until it chooses
// stop, no rewrite is left, or `max_steps`. Every graph on the way cheaper than all before it is a
// candidate; the best one wins. The run protocol, events, control and stop reasons are xrlflow's.
//
// Parameters: checkpoint (default: the agent shipped in resources/agents/rlflow.ckpt), max_steps
// (default 250). Deterministic for a checkpoint.
#pragma once

#include "search/Strategy.h"

#include <memory>
#include <string>

namespace tessera {

std::unique_ptr<Strategy> makeRlflowStrategy();

// Makes "rlflow" known to makeStrategy (core/search cannot name an area above it).
void registerRlflowStrategy();

// The agent shipped with Tessera.
std::string defaultRlflowCheckpoint();

} // namespace tessera
