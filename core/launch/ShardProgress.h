// What a launcher says about each shard while it works: its state, the node it runs on and how
// often it was resubmitted. The CLI prints these lines and the explorer's Jobs panel shows them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace tessera::launch {

enum class ShardState {
  Waiting,  // not submitted yet
  Pending,  // submitted, waiting for a slot
  Running,
  Done,     // its output exists
  Failed,   // gave up after its retries
};

const char* shardStateName(ShardState state);

struct ShardProgress {
  size_t index = 0;  // in the launch's shard list
  std::string name;
  ShardState state = ShardState::Waiting;
  std::string node;  // where it runs or ran, when known
  int retries = 0;   // resubmissions after a failure or a disappearance
  std::string note;  // why it was resubmitted or failed, or that it was found done
};

using ProgressCallback = std::function<void(const ShardProgress&)>;

// "shard 3/8 matmul:64x64x64: RUNNING on node1 (retries 1): cancelled".
std::string describe(const ShardProgress& progress, size_t shardCount);

} // namespace tessera::launch
