// `rl train --agent puct --launcher local|slurm`: each generation's self-play games, and the final
// network's round, played by launched shards of --games-per-shard games. The driver writes the
// generation's network into the generation's own work directory (a launch per generation, so a
// restart with the same --work-dir redoes no finished shard of any), each shard loads it, plays its
// games (their random streams come from the seed and the game's number alone) and writes them as a
// game file (puct/PuctGameFile.h), which the driver reads back in game order.
#pragma once

#include "RlTrainOptions.h"

#include "puct/PuctSelfPlay.h"
#include "rl/CheckpointFile.h"

#include <span>

namespace tessera::cli {

// SelfPlayOptions::play on shards; `network` is the header every generation's checkpoint carries.
// Creates the work directory now; the returned function throws tessera::Error naming the shards
// that failed or a game file that is not theirs.
SelfPlayGamePlayer playGamesOnShards(const RlTrainOptions& options, const SelfPlayOptions& selfPlay, const CheckpointHeader& network);

// A launched shard (hidden --game-shard FIRST:COUNT --shard-network CKPT): plays those games with
// that network and writes them to --out.
int writeGameShard(const RlTrainOptions& options, std::span<const NamedGraph> models, std::span<const Rule* const> rules, CostModel& cost,
                   const SelfPlayOptions& selfPlay);

} // namespace tessera::cli
