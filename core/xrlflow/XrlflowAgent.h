// An X-RLflow agent: the network (xrlflow/XrlflowNetwork.h) with how it acts, learns by PPO and
// is saved. Argmax when exploitation is asked for, else a sample from the agent's own generator,
// so a run is the same for the same seed and checkpoint. The header keeps libtorch out of its
// users (a pointer to the implementation), which keeps their compile times small.
#pragma once

#include "rewrite/Rule.h"
#include "rl/AgentConfig.h"
#include "rl/CheckpointFile.h"
#include "rl/Observation.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera {

// The agent's reading of one state and the action it took.
struct AgentDecision {
  size_t action = 0;               // a candidate's index, or candidates.size() for stop
  double logProbability = 0;       // of `action` under the policy
  double value = 0;                // the value head's estimate of the state
  std::vector<float> probabilities; // per action, candidates then stop
};

struct PpoUpdateStats {
  size_t transitions = 0;
  int epochs = 0;            // fewer than configured when the approximate KL divergence passed target_kl
  double policyLoss = 0;     // means over the minibatches
  double valueLoss = 0;
  double entropy = 0;
  double approxKl = 0;
  double seconds = 0;
};

class XrlflowAgent {
public:
  static constexpr const char* kName = "xrlflow";

  // A new agent with weights drawn from `seed`; `config` must name the feature and rule counts
  // (agentConfigFor).
  XrlflowAgent(const AgentConfig& config, uint64_t seed);
  // Reads a checkpoint written by save(); throws tessera::Error naming the file when it is
  // malformed, truncated, not an X-RLflow agent or trained with another rule pack than `rules`.
  static XrlflowAgent load(const std::string& path, std::span<const Rule* const> rules, uint64_t seed);
  XrlflowAgent(XrlflowAgent&&) noexcept;
  XrlflowAgent& operator=(XrlflowAgent&&) noexcept;
  ~XrlflowAgent();

  // Writes the agent with `header` (whose agent name and config are set from the agent).
  void save(const std::string& path, CheckpointHeader header) const;
  const AgentConfig& config() const;
  const CheckpointHeader& loadedFrom() const; // the header it was loaded with (default for a new agent)

  AgentDecision decide(const Observation& observation, bool explore);

  // PPO: each transition of the episodes played since the last update, in order.
  void record(Observation observation, const AgentDecision& decision, double reward, bool done);
  size_t recorded() const;
  // Learns from the recorded transitions (advantages by GAE, clipped surrogate, value and entropy
  // terms, Adam, gradient clipping) and forgets them.
  PpoUpdateStats update();

  // The weights now, and putting them back: training keeps the best agent it has seen.
  std::string weights() const;
  void restoreWeights(const std::string& weights);

private:
  struct State;
  explicit XrlflowAgent(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

} // namespace tessera
