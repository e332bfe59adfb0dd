#include "rl/CheckpointFile.h"

#include "rl/Observation.h"
#include "rl/RulePackFingerprint.h"
#include "support/Error.h"
#include "support/JsonCount.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>

namespace tessera {

namespace {

constexpr std::string_view kMagic = "tessera-agent-checkpoint 1\n";
constexpr uintmax_t kMaxCheckpointBytes = uintmax_t{1} << 30;

nlohmann::json configJson(const AgentConfig& c) {
  return {{"op_kinds", c.opKinds},            {"node_figures", c.nodeFigures},
          {"global_features", c.globalFeatures},
          {"rules", c.rules},                  {"hidden", c.hidden},
          {"message_passing_steps", c.messagePassingSteps},
          {"rule_embedding", c.ruleEmbedding}, {"head_hidden", c.headHidden},
          {"head_hidden2", c.headHidden2},     {"greedy_prior", c.greedyPrior},
          {"detour_prior", c.detourPrior},     {"stop_prior", c.stopPrior},
          {"max_candidates", c.maxCandidates}, {"horizon", c.horizon},
          {"learning_rate", c.learningRate},   {"clip", c.clip},
          {"gamma", c.gamma},                  {"lambda", c.lambda},
          {"entropy_weight", c.entropyWeight}, {"value_weight", c.valueWeight},
          {"max_grad_norm", c.maxGradNorm},    {"target_kl", c.targetKl},
          {"epochs", c.epochs},
          {"minibatch", c.minibatch},          {"episodes_per_update", c.episodesPerUpdate}};
}

AgentConfig configFromJson(const nlohmann::json& j) {
  AgentConfig c;
  c.opKinds = jsonCount<int>(j, "op_kinds");
  c.nodeFigures = jsonCount<int>(j, "node_figures");
  c.globalFeatures = jsonCount<int>(j, "global_features");
  c.rules = jsonCount<int>(j, "rules");
  c.hidden = jsonCount<int>(j, "hidden");
  c.messagePassingSteps = jsonCount<int>(j, "message_passing_steps");
  c.ruleEmbedding = jsonCount<int>(j, "rule_embedding");
  c.headHidden = jsonCount<int>(j, "head_hidden");
  c.headHidden2 = jsonCount<int>(j, "head_hidden2");
  c.greedyPrior = j.at("greedy_prior").get<double>();
  c.detourPrior = j.at("detour_prior").get<double>();
  c.stopPrior = j.at("stop_prior").get<double>();
  c.maxCandidates = jsonCount<int>(j, "max_candidates");
  c.horizon = jsonCount<int>(j, "horizon");
  c.learningRate = j.at("learning_rate").get<double>();
  c.clip = j.at("clip").get<double>();
  c.gamma = j.at("gamma").get<double>();
  c.lambda = j.at("lambda").get<double>();
  c.entropyWeight = j.at("entropy_weight").get<double>();
  c.valueWeight = j.at("value_weight").get<double>();
  c.maxGradNorm = j.at("max_grad_norm").get<double>();
  c.targetKl = j.at("target_kl").get<double>();
  c.epochs = jsonCount<int>(j, "epochs");
  c.minibatch = jsonCount<int>(j, "minibatch");
  c.episodesPerUpdate = jsonCount<int>(j, "episodes_per_update");
  return c;
}

// Reads "<label> <length>\n" at `at` and returns the length; the bytes must follow in full.
size_t readSection(std::string_view bytes, size_t& at, std::string_view label, const std::string& path) {
  const std::string prefix = std::string(label) + " ";
  if (bytes.substr(at, prefix.size()) != prefix) throw errorInFile(path, "not an agent checkpoint (no " + std::string(label) + " section)");
  at += prefix.size();
  size_t end = bytes.find('\n', at);
  if (end == std::string_view::npos) throw errorInFile(path, "truncated agent checkpoint (in the " + std::string(label) + " length)");
  size_t length = 0;
  auto [last, problem] = std::from_chars(bytes.data() + at, bytes.data() + end, length);
  if (problem != std::errc() || last != bytes.data() + end)
    throw errorInFile(path, "not an agent checkpoint (bad " + std::string(label) + " length)");
  at = end + 1;
  if (length > bytes.size() - at)
    throw errorInFile(path, "truncated agent checkpoint: the " + std::string(label) + " section should have " + std::to_string(length) +
                                " bytes, " + std::to_string(bytes.size() - at) + " are left");
  return length;
}

} // namespace

void writeCheckpointFile(const std::string& path, const CheckpointHeader& header, std::string_view weights) {
  nlohmann::json json{{"agent", header.agent},   {"config", configJson(header.config)},
                      {"rule_pack", header.rulePack}, {"rule_pack_size", header.rulePackSize},
                      {"cost", header.cost},     {"models", header.models},
                      {"episodes", header.episodes}, {"seed", header.seed}};
  if (header.agentFormat != 1) json["agent_format"] = header.agentFormat; // checkpoints of format 1 have none
  if (!header.modelHashes.empty()) json["model_hashes"] = header.modelHashes;
  const std::string text = json.dump(1);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, "cannot write the checkpoint");
  out << kMagic << "header " << text.size() << '\n' << text << "\nweights " << weights.size() << '\n';
  out.write(weights.data(), static_cast<std::streamsize>(weights.size()));
  out.flush();
  if (!out) throw errorInFile(path, "cannot write the checkpoint");
}

CheckpointContents readCheckpointFile(const std::string& path) {
  const std::string bytes = readFileBytes(path, kMaxCheckpointBytes);
  const std::string_view view(bytes);
  if (!view.starts_with(kMagic)) throw errorInFile(path, "not an agent checkpoint (it does not start with \"tessera-agent-checkpoint 1\")");
  size_t at = kMagic.size();
  const size_t headerLength = readSection(view, at, "header", path);
  const std::string_view headerText = view.substr(at, headerLength);
  at += headerLength;
  if (view.substr(at, 1) != "\n") throw errorInFile(path, "not an agent checkpoint (no line break after the header)");
  ++at;
  const size_t weightsLength = readSection(view, at, "weights", path);
  if (at + weightsLength != view.size())
    throw errorInFile(path, "not an agent checkpoint (" + std::to_string(view.size() - at - weightsLength) + " bytes after the weights)");

  CheckpointContents contents;
  try {
    nlohmann::json json = nlohmann::json::parse(headerText);
    CheckpointHeader& h = contents.header;
    h.agent = json.at("agent").get<std::string>();
    h.agentFormat = json.contains("agent_format") ? jsonCount<int>(json, "agent_format") : 1;
    h.config = configFromJson(json.at("config"));
    h.rulePack = json.at("rule_pack").get<std::string>();
    h.rulePackSize = jsonCount<int>(json, "rule_pack_size");
    h.cost = json.at("cost").get<std::string>();
    h.models = json.at("models").get<std::vector<std::string>>();
    if (json.contains("model_hashes")) h.modelHashes = json.at("model_hashes").get<std::vector<std::string>>();
    h.episodes = jsonCount<int>(json, "episodes");
    h.seed = jsonCount<uint64_t>(json, "seed");
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("the checkpoint's header is malformed: ") + e.what());
  } catch (const Error& e) { // a count that is not an integer of its type
    throw errorInFile(path, std::string("the checkpoint's header is malformed: ") + e.what());
  }
  checkAgentConfig(contents.header.config, path);
  if (contents.header.config.rules != contents.header.rulePackSize)
    throw errorInFile(path, "the checkpoint's header is inconsistent (config.rules differs from rule_pack_size)");
  if (!contents.header.modelHashes.empty() && contents.header.modelHashes.size() != contents.header.models.size())
    throw errorInFile(path, "the checkpoint's header is inconsistent (" + std::to_string(contents.header.modelHashes.size()) +
                                " model hashes for " + std::to_string(contents.header.models.size()) + " models)");
  contents.weights.assign(view.substr(at, weightsLength));
  return contents;
}

namespace {
// "an" before a name said with a vowel sound: a vowel, or a spelt-out letter that starts with one
// (xrlflow "ex-", rlflow "ar-", mcts "em-"); "a" otherwise (puct).
std::string_view articleFor(std::string_view name) {
  constexpr std::string_view kVowels = "aeio", kSpeltWithVowel = "fhlmnrsx", kConsonants = "bcdfghjklmnpqrstvwxyz";
  if (name.empty()) return "a";
  if (kVowels.find(name[0]) != std::string_view::npos) return "an";
  const bool spelt = name.size() > 1 && kSpeltWithVowel.find(name[0]) != std::string_view::npos &&
                     kConsonants.find(name[1]) != std::string_view::npos;
  return spelt ? "an" : "a";
}
} // namespace

void checkCheckpointFits(const CheckpointHeader& header, std::string_view agent, std::span<const Rule* const> rules,
                         const std::string& path) {
  if (header.agent != agent)
    throw errorInFile(path, "holds " + std::string(articleFor(header.agent)) + " '" + header.agent + "' agent, not " +
                                std::string(articleFor(agent)) + " " + std::string(agent) + " one");
  const std::string pack = rulePackFingerprint(rules);
  if (header.rulePack != pack || header.rulePackSize != static_cast<int>(rules.size()))
    throw errorInFile(path, "the agent was trained with another rule pack (" + std::to_string(header.rulePackSize) + " rules, fingerprint " +
                                header.rulePack + ") than this run's (" + std::to_string(rules.size()) + " rules, fingerprint " + pack +
                                "): train it on this pack with `tessera-cli rl train`");
  const AgentConfig& config = header.config;
  if (config.opKinds != opKindCount() || config.nodeFigures != nodeFigureSize() || config.globalFeatures != globalFeatureSize())
    throw errorInFile(path, "the agent reads " + std::to_string(config.opKinds) + " op kinds, " + std::to_string(config.nodeFigures) +
                                " node figures and " + std::to_string(config.globalFeatures) + " global features; this build observes " +
                                std::to_string(opKindCount()) + ", " + std::to_string(nodeFigureSize()) + " and " +
                                std::to_string(globalFeatureSize()) + " (its op table changed): train it again");
}

} // namespace tessera
