// An observation as JSON (for CBOR files: exact for its floats), and read back with every count
// and row checked, so that a file written by a launched shard or damaged on disk never reaches a
// network with rows it does not have. Shared by RLFlow's episode shards and PUCT's game shards.
#pragma once

#include "rl/Observation.h"

#include <nlohmann/json_fwd.hpp>

namespace tessera {

nlohmann::json observationJson(const Observation& observation);
// Throws tessera::Error saying what does not fit (the caller names the file).
Observation observationFromJson(const nlohmann::json& json);

} // namespace tessera
