// launch.json: read, validated and written atomically.
#include "launch/LaunchState.h"

#include "launch/WorkDir.h"
#include "support/ContentHash.h"
#include "support/Error.h"
#include "support/JsonCount.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

namespace tessera::launch {

std::string fingerprintOf(const std::string& text) { return fnv1aHex(text); }

LaunchState readLaunchState(const std::string& path) {
  LaunchState state;
  if (!fileExists(path)) return state;
  try {
    const nlohmann::json json = nlohmann::json::parse(readFileBytes(path, 64u << 20));
    state.fingerprint = json.at("fingerprint").get<std::string>();
    state.jobs = json.at("jobs").get<std::vector<std::string>>();
    for (const nlohmann::json& shard : json.at("shards")) {
      ShardRecord record;
      record.submitted = shard.at("submitted").get<bool>();
      record.retries = jsonCount<int>(shard, "retries");
      record.node = shard.at("node").get<std::string>();
      state.shards.push_back(record);
    }
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("not a launch state file: ") + e.what());
  } catch (const Error& e) {
    throw errorInFile(path, std::string("not a launch state file: ") + e.what());
  }
  return state;
}

void writeLaunchState(const std::string& path, const LaunchState& state) {
  nlohmann::json json{{"fingerprint", state.fingerprint}, {"jobs", state.jobs}, {"shards", nlohmann::json::array()}};
  for (const ShardRecord& record : state.shards)
    json["shards"].push_back({{"submitted", record.submitted}, {"retries", record.retries}, {"node", record.node}});
  writeFileAtomically(path, json.dump(1) + "\n");
}

} // namespace tessera::launch
