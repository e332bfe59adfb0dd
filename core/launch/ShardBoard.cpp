// shards.json: written atomically by the driver, read by whoever watches the launch.
#include "launch/ShardBoard.h"

#include "launch/WorkDir.h"
#include "support/Error.h"
#include "support/JsonCount.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <ctime>
#include <filesystem>

namespace tessera::launch {

namespace {

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

} // namespace

ShardState shardStateNamed(const std::string& name) {
  for (ShardState state : {ShardState::Waiting, ShardState::Pending, ShardState::Running, ShardState::Done, ShardState::Failed})
    if (name == shardStateName(state)) return state;
  throw Error("unknown shard state '" + name + "'");
}

void writeShardBoard(const std::string& workDir, ShardBoard& board) {
  board.updated = utcNow();
  nlohmann::json shards = nlohmann::json::array();
  for (const ShardProgress& p : board.shards)
    shards.push_back({{"index", p.index}, {"name", p.name}, {"state", shardStateName(p.state)}, {"node", p.node}, {"retries", p.retries},
                      {"note", p.note}});
  const nlohmann::json json{{"launcher", board.launcher}, {"command", board.command}, {"updated", board.updated},
                            {"finished", board.finished}, {"shards", shards}};
  writeFileAtomically(workDir + "/" + kShardBoardFile, json.dump(1) + "\n");
}

ShardBoard readShardBoard(const std::string& workDir) {
  const std::string path = workDir + "/" + kShardBoardFile;
  if (!fileExists(path)) throw errorInFile(path, "no shard board here: not the work directory of a launch, or its driver has not started");
  const std::string text = readFileBytes(path, 64u << 20);
  ShardBoard board;
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    board.launcher = json.at("launcher").get<std::string>();
    board.command = json.at("command").get<std::string>();
    board.updated = json.at("updated").get<std::string>();
    board.finished = json.at("finished").get<bool>();
    for (const nlohmann::json& shard : json.at("shards")) {
      ShardProgress p;
      p.index = jsonCount<size_t>(shard, "index");
      p.name = shard.at("name").get<std::string>();
      p.state = shardStateNamed(shard.at("state").get<std::string>());
      p.node = shard.at("node").get<std::string>();
      p.retries = jsonCount<int>(shard, "retries");
      p.note = shard.at("note").get<std::string>();
      board.shards.push_back(std::move(p));
    }
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("not a shard board: ") + e.what());
  } catch (const Error& e) {
    throw errorInFile(path, e.what());
  }
  return board;
}

std::string launchToShow(const std::string& workDir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(fs::path(workDir) / kShardBoardFile, ec)) return workDir;
  std::string latest = workDir;
  fs::file_time_type latestWritten = fs::file_time_type::min();
  for (const fs::directory_entry& entry : fs::directory_iterator(workDir, ec)) {
    const fs::path board = entry.path() / kShardBoardFile;
    std::error_code timeError;
    const fs::file_time_type written = fs::last_write_time(board, timeError);
    if (timeError || written < latestWritten) continue; // no board there, or an older one
    if (written == latestWritten && entry.path().string() < latest) continue; // a tie goes to the later name
    latest = entry.path().string();
    latestWritten = written;
  }
  return latest;
}

} // namespace tessera::launch
