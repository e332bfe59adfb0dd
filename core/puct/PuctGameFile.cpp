#include "puct/PuctGameFile.h"

#include "rl/ObservationJson.h"
#include "support/Error.h"
#include "support/JsonCount.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

namespace tessera {

namespace {

constexpr const char* kFormat = "tessera-puct-games";
constexpr int kVersion = 1;
constexpr size_t kMostRules = 1 << 20; // a bound far above any pack, so that rows x features cannot overflow

nlohmann::json sampleJson(const PuctSample& sample) {
  const PuctInput& input = sample.input;
  return {{"observation", observationJson(input.observation)},
          {"rule_features", input.ruleFeatures},
          {"state_features", input.stateFeatures},
          {"can_act", input.canAct},
          {"state_speedup_pct", input.stateSpeedupPct},
          {"visit_shares", sample.policyTarget}, // the key of files from before completed-Q targets
          {"value_target", sample.valueTarget}};
}

bool allFinite(const std::vector<float>& numbers) {
  return std::all_of(numbers.begin(), numbers.end(), [](float x) { return std::isfinite(x); });
}

void require(bool holds, const std::string& what) {
  if (!holds) throw Error(what);
}

PuctSample sampleFrom(const nlohmann::json& json, size_t rules) {
  PuctSample sample;
  PuctInput& input = sample.input;
  input.observation = observationFromJson(json.at("observation"));
  input.ruleFeatures = json.at("rule_features").get<std::vector<float>>();
  input.stateFeatures = json.at("state_features").get<std::vector<float>>();
  input.canAct = jsonCounts<uint8_t>(json, "can_act");
  input.stateSpeedupPct = json.at("state_speedup_pct").get<double>();
  sample.policyTarget = json.at("visit_shares").get<std::vector<float>>();
  sample.valueTarget = json.at("value_target").get<double>();
  require(input.ruleFeatures.size() == rules * kPuctRuleFeatures && allFinite(input.ruleFeatures),
          "a sample's rule features are not rules x " + std::to_string(kPuctRuleFeatures) + " finite numbers");
  require(input.stateFeatures.size() == kPuctStateFeatures && allFinite(input.stateFeatures),
          "a sample's state features are not " + std::to_string(kPuctStateFeatures) + " finite numbers");
  require(input.canAct.size() == rules && std::all_of(input.canAct.begin(), input.canAct.end(), [](uint8_t can) { return can <= 1; }),
          "a sample's can-act flags are not one 0 or 1 a rule");
  require(sample.policyTarget.size() == rules && allFinite(sample.policyTarget) &&
              std::all_of(sample.policyTarget.begin(), sample.policyTarget.end(), [](float share) { return share >= 0; }),
          "a sample's visit shares are not one share a rule");
  require(std::isfinite(input.stateSpeedupPct) && std::isfinite(sample.valueTarget), "a sample's speedup or value target is not finite");
  return sample;
}

PlayedGame gameFrom(const nlohmann::json& json, size_t rules) {
  PlayedGame played;
  SelfPlayGame& game = played.game;
  game.index = jsonCount<int>(json, "index");
  game.generation = jsonCount<int>(json, "generation");
  game.model = json.at("model").get<std::string>();
  game.speedupPct = json.at("speedup_pct").get<double>();
  game.verified = json.at("verified").get<bool>();
  game.steps = jsonCount<int>(json, "steps");
  game.seconds = json.at("seconds").get<double>();
  for (const nlohmann::json& sample : json.at("samples")) played.samples.push_back(sampleFrom(sample, rules));
  game.samples = played.samples.size();
  require(std::isfinite(game.speedupPct) && std::isfinite(game.seconds), "a game's speedup or time is not finite");
  return played;
}

std::string describe(const PuctGamesKey& key) {
  return "games " + std::to_string(key.first + 1) + "-" + std::to_string(key.first + key.count) + " of seed " + std::to_string(key.seed) +
         " played with network " + key.network + " over " + std::to_string(key.rules) + " rules";
}

} // namespace

void writePuctGameFile(const std::string& path, const PuctGameFile& file) {
  nlohmann::json games = nlohmann::json::array();
  for (const PlayedGame& played : file.games) {
    const SelfPlayGame& game = played.game;
    nlohmann::json samples = nlohmann::json::array();
    for (const PuctSample& sample : played.samples) samples.push_back(sampleJson(sample));
    games.push_back({{"index", game.index},
                     {"generation", game.generation},
                     {"model", game.model},
                     {"speedup_pct", game.speedupPct},
                     {"verified", game.verified},
                     {"steps", game.steps},
                     {"seconds", game.seconds},
                     {"samples", samples}});
  }
  const nlohmann::json json{{"format", kFormat}, {"version", kVersion},         {"seed", file.key.seed},
                            {"network", file.key.network}, {"first", file.key.first}, {"rules", file.key.rules},
                            {"games", games}};
  const std::vector<uint8_t> bytes = nlohmann::json::to_cbor(json);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw errorInFile(path, "cannot write the shard's self-play games");
}

PuctGameFile readPuctGameFile(const std::string& path) {
  PuctGameFile file;
  try {
    const nlohmann::json json = nlohmann::json::from_cbor(readFileBytes(path, uintmax_t{4} << 30));
    if (!json.is_object() || json.value("format", "") != kFormat) throw Error(std::string("not a file of puct self-play games (") + kFormat + ")");
    if (jsonCount<int>(json, "version") != kVersion)
      throw Error("a puct game file of version " + json.at("version").dump() + "; this build reads version " + std::to_string(kVersion));
    PuctGamesKey& key = file.key;
    key.seed = jsonCount<uint64_t>(json, "seed");
    key.network = json.at("network").get<std::string>();
    key.first = jsonCount<int>(json, "first");
    key.rules = jsonCount<size_t>(json, "rules");
    require(key.first >= 0, "its first game number is negative");
    require(key.rules >= 1 && key.rules <= kMostRules, "its rule count is not a pack's");
    const nlohmann::json& games = json.at("games");
    require(games.is_array() && !games.empty(), "it holds no games");
    require(games.size() <= static_cast<size_t>(std::numeric_limits<int>::max() - key.first), "its game numbers run past the largest");
    key.count = static_cast<int>(games.size());
    for (const nlohmann::json& game : games) {
      file.games.push_back(gameFrom(game, key.rules));
      const int expected = key.first + static_cast<int>(file.games.size()) - 1;
      require(file.games.back().game.index == expected, "game " + std::to_string(expected + 1) + " is numbered otherwise");
    }
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("not a file of puct self-play games: ") + e.what());
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind(path + ": ", 0) == 0) throw;
    throw errorInFile(path, what);
  }
  return file;
}

std::vector<PlayedGame> readPuctGames(const std::string& path, const PuctGamesKey& expected) {
  PuctGameFile file = readPuctGameFile(path);
  if (!(file.key == expected))
    throw errorInFile(path, "holds " + describe(file.key) + ", not " + describe(expected) +
                                " (a shard of another generation or run: give this training a --work-dir of its own)");
  return std::move(file.games);
}

} // namespace tessera
