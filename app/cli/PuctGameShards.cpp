// PUCT self-play games on launched shards: the shards' command lines, the generations' work
// directories and networks, and the games read back.
#include "PuctGameShards.h"

#include "LauncherOptions.h"
#include "RlTrainShards.h"

#include "launch/Shard.h"
#include "puct/PuctGameFile.h"
#include "support/ContentHash.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <algorithm>
#include <filesystem>

namespace tessera::cli {

namespace {

constexpr uintmax_t kMostNetworkBytes = uintmax_t{1} << 30;

// What tells one network from another in a game file: its checkpoint's bytes.
std::string networkHash(const std::string& path) { return fnv1aHex(readFileBytes(path, kMostNetworkBytes)); }

std::string roundName(int generation) { return generation < 0 ? "final" : "generation-" + std::to_string(generation + 1); }

} // namespace

SelfPlayGamePlayer playGamesOnShards(const RlTrainOptions& options, const SelfPlayOptions& selfPlay, const CheckpointHeader& network) {
  if (options.puct.gamesPerShard < 1) throw Error("--games-per-shard must be at least 1");
  LauncherOptions launcher = options.rlflow.launcher;
  const std::string workDir = absolutePath(launchWorkDir(launcher, "rl-train"));
  return [&options, selfPlay, network, launcher, workDir](PuctAgent& agent, int generation, int first, int count) {
    LauncherOptions round = launcher;
    round.workDir = workDir + "/" + roundName(generation);
    std::error_code ec;
    std::filesystem::create_directories(round.workDir, ec);
    if (ec) throw errorInFile(round.workDir, "cannot create the generation's work directory: " + ec.message());
    const std::string networkPath = round.workDir + "/network.ckpt";
    agent.save(networkPath, network);
    const std::string hash = networkHash(networkPath);

    std::vector<launch::Shard> shards;
    std::vector<PuctGamesKey> keys;
    const std::string what = generation < 0 ? "final round" : "generation " + std::to_string(generation + 1);
    for (int from = first; from < first + count; from += options.puct.gamesPerShard) {
      const int games = std::min(options.puct.gamesPerShard, first + count - from);
      keys.push_back({options.seed, hash, from, games, agent.rules()});
      launch::Shard shard;
      shard.name = what + " games " + std::to_string(from + 1) + "-" + std::to_string(from + games);
      shard.output = round.workDir + "/games-" + std::to_string(from) + "-" + std::to_string(games) + ".cbor";
      shard.argv = rlTrainShardCommand(options);
      shard.argv.insert(shard.argv.end(), {"--games", std::to_string(selfPlay.games), "--simulations", std::to_string(selfPlay.simulations),
                                           "--game-shard", std::to_string(from) + ":" + std::to_string(games), "--shard-network", networkPath,
                                           "--out", launch::kOutputPlaceholder});
      shards.push_back(std::move(shard));
    }
    requireShardsDone(runShards(round, shards), "self-play game", workDir);
    std::vector<PlayedGame> played;
    for (size_t i = 0; i < shards.size(); ++i)
      for (PlayedGame& game : readPuctGames(shards[i].output, keys[i])) {
        reportProgress(selfPlayGameLine(game.game, selfPlay));
        played.push_back(std::move(game));
      }
    return played;
  };
}

int writeGameShard(const RlTrainOptions& options, std::span<const NamedGraph> models, std::span<const Rule* const> rules, CostModel& cost,
                   const SelfPlayOptions& selfPlay) {
  const auto [first, count] = shardRange("--game-shard", options.puct.gameShard);
  if (options.puct.shardNetwork.empty()) throw Error("--game-shard needs --shard-network: the network that plays the games");
  std::unique_ptr<PuctAgent> agent = PuctAgent::load(options.puct.shardNetwork, rules);
  PuctGameFile file;
  file.key = {options.seed, networkHash(options.puct.shardNetwork), first, count, agent->rules()};
  file.games = playSelfPlayGames(*agent, models, rules, cost, selfPlay, first, count);
  writePuctGameFile(options.out, file);
  return 0;
}

} // namespace tessera::cli
