// A training report as `tessera-cli rl train --json` writes it, read back for what a person looks
// at: the reward of each episode, and what the run was (agent, seed, models, cost model).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct EpisodeReward {
  int episode = 0;   // from 1
  double reward = 0; // the episode's return
  std::string model; // what it was played on
};

struct TrainingCurve {
  std::string path;
  std::string agent;
  std::optional<uint64_t> seed;
  std::vector<std::string> models;
  std::string cost;
  std::vector<EpisodeReward> episodes; // in episode order
};

// Throws tessera::Error naming `path` when it cannot be read, is not JSON, or has no training
// curve (`curve`: a list of {episode, reward, model}) of finite rewards.
TrainingCurve readTrainingCurve(const std::string& path);

} // namespace tessera
