// `rl train --agent rlflow --launcher local|slurm`: the random agent's world-model episodes, the
// part of RLFlow's training that plays the real environment, collected by launched shards of a
// range of episodes each, and read back as the data a collection in this process gives.
#pragma once

#include "RlTrainOptions.h"

#include "rlflow/RlflowAgent.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace tessera {
class GraphEpisodes;
}

namespace tessera::cli {

using EpisodeCollection = std::function<std::vector<WorldModelEpisode>(size_t& realSteps)>;

// The collection of `options.rlflow.worldModelEpisodes` episodes on shards of
// `options.rlflow.episodesPerShard` each; throws tessera::Error naming the shards that failed or
// a shard file that does not hold its range.
EpisodeCollection collectEpisodesOnShards(const RlTrainOptions& options);

// A launched shard (hidden --episode-shard FIRST:COUNT): collects its range of episodes and
// writes them to --out.
int writeEpisodeShard(const RlTrainOptions& options, GraphEpisodes& models, int rules, double stopProbability);

} // namespace tessera::cli
