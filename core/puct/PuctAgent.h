// The PUCT agent (issue #37): a network over MCTS states (puct/PuctNetwork.h) used as MCTS's
// learned guide, its training step on self-play targets, and its checkpoint (core/rl's format, kind
// "puct", with the rule pack's fingerprint and the action-space size). No libtorch in this header.
#pragma once

#include "puct/PuctFeatures.h"
#include "rl/CheckpointFile.h"
#include "search/mcts/PriorModel.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera {

// One self-play target: a root state, the policy its search taught and the gain reached below it.
struct PuctSample {
  PuctInput input;
  std::vector<float> policyTarget; // per rule, summing to 1: the completed-Q policy or the visit shares (mcts/PolicyTarget.h)
  double valueTarget = 0;          // final verified speedup - the state's speedup, points
};

struct PuctLosses {
  double policy = 0; // cross-entropy of the prior against the visit shares
  double value = 0;  // mean squared error, points squared
};

class PuctAgent final : public mcts::PriorModel {
public:
  static constexpr const char* kName = "puct";

  // A new agent for a pack of `rules` rules, weights drawn from `seed`.
  PuctAgent(size_t rules, uint64_t seed, double learningRate = 1e-3);
  // Reads a checkpoint written by save(); throws tessera::Error naming the file when it is
  // malformed, truncated, another agent's, of another rule pack or action space, or its weights
  // do not fit.
  static std::unique_ptr<PuctAgent> load(const std::string& path, std::span<const Rule* const> rules);
  ~PuctAgent() override;

  void save(const std::string& path, CheckpointHeader header) const;
  size_t rules() const;

  mcts::Guidance evaluate(const mcts::SearchState& state) override;
  // "puct.ckpt (trained on 8 models); this model is in its training set (in-sample)" for a loaded agent.
  std::string describe(std::optional<bool> trainedOnModel) const override;
  std::optional<bool> trainedOn(const Graph& model) const override;
  mcts::Guidance guidance(const PuctInput& input);
  // One Adam step on `batch`: cross-entropy on the policy targets plus the value's squared error.
  PuctLosses train(std::span<const PuctSample* const> batch);

private:
  struct State;
  std::unique_ptr<State> state_;
};

// Lets `--strategy mcts --param prior=CKPT` load PUCT checkpoints (mcts/PriorModel.h).
void registerPuctPriors();

} // namespace tessera
