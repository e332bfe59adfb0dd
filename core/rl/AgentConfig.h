// Everything that decides an X-RLflow agent's network shape, environment and training, kept in
// its checkpoint so that a run uses the agent exactly as it was trained. The PPO numbers are the
// original's (He, Parker, Yoneki, MLSys'23, and ucamrl/xrlflow's run_ppo.py).
#pragma once

#include <string>

namespace tessera {

struct AgentConfig {
  // What the network reads: fixed by the op table and the rule pack it was built for.
  int opKinds = 0;
  int nodeFigures = 0;
  int globalFeatures = 0;
  int rules = 0;

  // Network. Half the original's widths (GAT 64, heads [256, 64]): PPO's updates are a quarter of
  // the work, which is what lets an agent train in minutes on two cores.
  int hidden = 32;               // GAT width (the original's gat_attn_mlp)
  int messagePassingSteps = 5;
  int ruleEmbedding = 16;
  int headHidden = 128;          // the candidate and value heads: headHidden -> headHidden2 -> 1 (policy/vf_feature)
  int headHidden2 = 32;
  // The untrained policy is greedy: a candidate's logit starts as greedyPrior x its saving, or
  // detourPrior x its extra cost, normalised by the state's largest cost change (both learned).
  // Strong while rewrites save, so learning does not flip greedy's clear choices by accident;
  // mild for rewrites that cost, so detours are still explored.
  double greedyPrior = 8.0;
  double detourPrior = 2.0;
  double stopPrior = -0.5;       // initial bias of stop's logit (learned): below a rewrite that costs nothing, so
                                 // the untrained agent walks a plateau (X-RLflow's point) rather than stop on it

  // Environment.
  int maxCandidates = 64;
  int horizon = 100;

  // PPO.
  double learningRate = 5e-4;
  double clip = 0.2;
  double gamma = 0.99;
  double lambda = 0.95;
  double entropyWeight = 0.01;
  double valueWeight = 0.5;
  double maxGradNorm = 0.5;      // the original's global_norm
  double targetKl = 0.05;        // an update's epochs stop early past this approximate KL divergence
  int epochs = 4;
  int minibatch = 16;
  int episodesPerUpdate = 10;
};

// The defaults, for a rule pack of `rules` rules and the observation sizes of this build.
AgentConfig agentConfigFor(size_t rules);

// Throws tessera::Error naming the setting when a value cannot train or run (`where` prefixes it).
void checkAgentConfig(const AgentConfig& config, const std::string& where);

} // namespace tessera
