// World-model episodes collected by launched shards: the shards' command lines, their file (CBOR:
// compact, and exact for the observations' floats and the rewards' doubles) and its reading back.
#include "RlflowEpisodeShards.h"

#include "LauncherOptions.h"
#include "RlTrainShards.h"

#include "launch/Shard.h"
#include "rl/GraphEpisodes.h"
#include "rl/ObservationJson.h"
#include "rlflow/RlflowTraining.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace tessera::cli {

namespace {

nlohmann::json episodeJson(const WorldModelEpisode& episode) {
  nlohmann::json states = nlohmann::json::array(), actions = nlohmann::json::array();
  for (const Observation& state : episode.states) states.push_back(observationJson(state));
  for (const RlflowAction& action : episode.actions) actions.push_back({action.rule, action.location});
  return {{"model", episode.model}, {"states", states}, {"actions", actions}, {"rewards", episode.rewards}, {"done", episode.done}};
}

WorldModelEpisode episodeFrom(const nlohmann::json& json) {
  WorldModelEpisode episode;
  episode.model = json.at("model").get<std::string>();
  for (const nlohmann::json& state : json.at("states")) episode.states.push_back(observationFromJson(state));
  for (const nlohmann::json& action : json.at("actions")) episode.actions.push_back({action.at(0).get<int>(), action.at(1).get<int>()});
  episode.rewards = json.at("rewards").get<std::vector<double>>();
  episode.done = json.at("done").get<std::vector<bool>>();
  if (episode.states.size() != episode.actions.size() + 1 || episode.rewards.size() != episode.actions.size() ||
      episode.done.size() != episode.actions.size())
    throw Error("an episode's states, actions, rewards and done flags do not line up");
  return episode;
}

// What a shard was asked for, so that a file from another launch or seed is not taken for it.
struct EpisodeRange {
  uint64_t seed = 0;
  int first = 0, count = 0;
};

std::vector<WorldModelEpisode> readEpisodeShard(const std::string& path, const EpisodeRange& expected) {
  nlohmann::json json;
  EpisodeRange held;
  try {
    json = nlohmann::json::from_cbor(readFileBytes(path, size_t{4} << 30));
    held = {json.at("seed").get<uint64_t>(), json.at("first").get<int>(), static_cast<int>(json.at("episodes").size())};
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("not a file of world-model episodes: ") + e.what());
  }
  if (held.seed != expected.seed || held.first != expected.first || held.count != expected.count)
    throw errorInFile(path, "holds world-model episodes " + std::to_string(held.first) + "+" + std::to_string(held.count) + " of seed " +
                                std::to_string(held.seed) + ", not " + std::to_string(expected.first) + "+" + std::to_string(expected.count) +
                                " of seed " + std::to_string(expected.seed));
  std::vector<WorldModelEpisode> episodes;
  try {
    for (const nlohmann::json& episode : json.at("episodes")) episodes.push_back(episodeFrom(episode));
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("a malformed world-model episode: ") + e.what());
  } catch (const Error& e) {
    throw errorInFile(path, e.what());
  }
  return episodes;
}

} // namespace

int writeEpisodeShard(const RlTrainOptions& options, GraphEpisodes& models, int rules, double stopProbability) {
  const auto [first, count] = shardRange("--episode-shard", options.rlflow.episodeShard);
  size_t realSteps = 0;
  const std::vector<WorldModelEpisode> episodes =
      collectSeededEpisodes(models, first, count, rules, stopProbability, options.seed, realSteps, reportProgress);
  nlohmann::json json{{"seed", options.seed}, {"first", first}, {"real_steps", realSteps}, {"episodes", nlohmann::json::array()}};
  for (const WorldModelEpisode& episode : episodes) json["episodes"].push_back(episodeJson(episode));
  const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(json);
  std::ofstream out(options.out, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw errorInFile(options.out, "cannot write the shard's world-model episodes");
  return 0;
}

EpisodeCollection collectEpisodesOnShards(const RlTrainOptions& options) {
  if (options.rlflow.episodesPerShard < 1) throw Error("--episodes-per-shard must be at least 1");
  return [&options](size_t& realSteps) {
    LauncherOptions launcher = options.rlflow.launcher;
    const std::string workDir = absolutePath(launchWorkDir(launcher, "rl-train"));
    const int total = options.rlflow.worldModelEpisodes, perShard = options.rlflow.episodesPerShard;
    std::vector<launch::Shard> shards;
    std::vector<EpisodeRange> ranges;
    for (int first = 0; first < total; first += perShard) {
      const int count = std::min(perShard, total - first);
      ranges.push_back({options.seed, first, count});
      launch::Shard shard;
      shard.name = "world-model episodes " + std::to_string(first + 1) + "-" + std::to_string(first + count);
      shard.output = workDir + "/episodes-" + std::to_string(first) + "-" + std::to_string(count) + ".cbor";
      shard.argv = rlTrainShardCommand(options);
      shard.argv.insert(shard.argv.end(),
                        {"--episode-shard", std::to_string(first) + ":" + std::to_string(count), "--out", launch::kOutputPlaceholder});
      shards.push_back(std::move(shard));
    }
    const launch::LaunchResult result = runShards(launcher, shards);
    requireShardsDone(result, "world-model episode", workDir);
    std::vector<WorldModelEpisode> data;
    for (size_t i = 0; i < shards.size(); ++i)
      for (WorldModelEpisode& episode : readEpisodeShard(shards[i].output, ranges[i])) {
        realSteps += episode.actions.size();
        data.push_back(std::move(episode));
      }
    reportProgress("world-model data: " + std::to_string(data.size()) + " episodes from " + std::to_string(shards.size()) + " shard(s), " +
                   std::to_string(realSteps) + " real steps so far");
    return data;
  };
}

} // namespace tessera::cli
