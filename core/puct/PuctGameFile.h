// The file a launched shard of PUCT self-play writes: which games it holds and with which network
// they were played, and each game's record and targets (root inputs, visit shares, value targets).
// CBOR, exact for the floats and doubles, so the driver's replay buffer is the one a training in one
// process fills. Read with every count checked: a damaged file or one of another run is a
// tessera::Error naming it, never a buffer the network cannot read.
#pragma once

#include "puct/SelfPlayGame.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

// What a shard was asked for; a file of other games, seed, network or rule pack is not its answer.
struct PuctGamesKey {
  uint64_t seed = 0;
  std::string network; // content hash of the network file the games were played with
  int first = 0;       // the run's game numbers first, first + 1, …
  int count = 0;
  size_t rules = 0;    // the action space: per-rule rows of every sample

  bool operator==(const PuctGamesKey&) const = default;
};

struct PuctGameFile {
  PuctGamesKey key;
  std::vector<PlayedGame> games; // game numbers key.first … key.first + key.count - 1, in order
};

// Throws tessera::Error naming `path` when it cannot be written.
void writePuctGameFile(const std::string& path, const PuctGameFile& file);
// Throws tessera::Error naming `path` when it is missing, not a game file, or its games do not
// fit its key (count, numbers, per-rule rows, observations).
PuctGameFile readPuctGameFile(const std::string& path);
// readPuctGameFile, then the key it holds must be `expected`: otherwise an error naming the file
// and both keys' differences.
std::vector<PlayedGame> readPuctGames(const std::string& path, const PuctGamesKey& expected);

} // namespace tessera
