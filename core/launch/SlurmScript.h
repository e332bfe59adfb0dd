// The one sbatch array script of a launch: array task i runs shard i, writes a temporary file and
// renames it to the shard's output when the command exits 0. A task whose output already exists
// does nothing, so a resubmitted or requeued task never redoes finished work.
#pragma once

#include "launch/Shard.h"

#include <string>
#include <vector>

namespace tessera::launch {

std::string slurmArrayScript(const std::vector<Shard>& shards);

} // namespace tessera::launch
