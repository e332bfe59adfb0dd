// One game of PUCT self-play: what the training report keeps of it and the targets it left for the
// replay buffer. Games are numbered across a run: game g < games is self-play on model g mod n, and
// game games + m the final network's game on model m (PuctSelfPlay.h).
#pragma once

#include "puct/PuctAgent.h"

#include <string>
#include <vector>

namespace tessera {

struct SelfPlayGame {
  int index = 0;                // the run's game number g
  int generation = 0;           // -1: the final network's evaluation round
  std::string model;
  double speedupPct = 0;
  bool verified = false;
  int steps = 0;
  size_t samples = 0;           // roots recorded
  double seconds = 0;
};

struct PlayedGame {
  SelfPlayGame game;
  std::vector<PuctSample> samples; // in the order the game planned its roots
};

} // namespace tessera
