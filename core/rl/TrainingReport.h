// A training report as `tessera-cli rl train --json` writes it, read back for what a person looks
// at: the reward of each episode, and what the run was (agent, seed, models, cost model).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct EpisodeReward {
  int episode = 0;   // from 1
  double reward = 0; // the episode's return
  std::string model; // what it was played on
};

// What every training report says about its run, whatever chart is read from it.
struct ReportRun {
  std::string path;
  std::string agent; // "xrlflow", "rlflow", "puct"
  std::optional<uint64_t> seed;
  std::vector<std::string> models;
};

struct TrainingCurve : ReportRun {
  std::string cost;
  std::vector<EpisodeReward> episodes; // in episode order
};

// Throws tessera::Error naming `path` when it cannot be read, is not JSON, or has no training
// curve (`curve`: a list of {episode, reward, model}) of finite rewards.
TrainingCurve readTrainingCurve(const std::string& path);

// Reads the report at `path` and hands its text to `read`: any problem, reading the file, parsing
// its JSON (nlohmann's exceptions) or in `read` (tessera::Error), is thrown as a tessera::Error
// that names `path` once. The readers of reports share it.
void readReportFile(const std::string& path, const std::function<void(const std::string& text)>& read);

} // namespace tessera
