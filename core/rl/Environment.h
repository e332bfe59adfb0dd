// The Markov decision process an RL agent is trained on and acts in: a state it observes, a
// list of actions (the observation's candidates, then stop), and a reward per step. The graph
// rewriting environment implements it; tests implement small ones with known optimal policies.
#pragma once

#include "rl/Observation.h"

#include <cstddef>
#include <string>

namespace tessera {

struct StepOutcome {
  double reward = 0;
  bool done = false; // stop chosen, no candidate left, or the horizon reached
};

class Environment {
public:
  virtual ~Environment() = default;
  // The current state; valid until the next step.
  virtual const Observation& observation() const = 0;
  // Takes action `action` (a candidate's index, or candidates.size() to stop). Must not be
  // called once done.
  virtual StepOutcome step(size_t action) = 0;
  virtual bool done() const = 0;
};

// Where training episodes come from.
class EpisodeSource {
public:
  virtual ~EpisodeSource() = default;
  // Resets an environment for episode `episode` (counted from 0) and returns it.
  virtual Environment& begin(int episode) = 0;
  // What the episode is played on (a model's name), for progress and training curves.
  virtual std::string label(int episode) const = 0;
};

} // namespace tessera
