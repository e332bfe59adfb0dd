#include "rl/TrainingReport.h"

#include "rl/ReportObject.h"

#include "support/Error.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace tessera {

namespace {

// A report of 100,000 episodes is about 10 MB; anything far larger is not a report.
constexpr uintmax_t kMaxReportBytes = 256u << 20;

EpisodeReward readEpisode(const nlohmann::json& entry, size_t index) {
  if (!entry.is_object()) throw Error("curve entry " + std::to_string(index) + " is not an object");
  const auto reward = entry.find("reward");
  if (reward == entry.end() || !reward->is_number())
    throw Error("curve entry " + std::to_string(index) + " has no numeric 'reward'");
  EpisodeReward episode;
  episode.reward = reward->get<double>();
  if (!std::isfinite(episode.reward)) throw Error("curve entry " + std::to_string(index) + " has a reward that is not finite");
  const auto number = entry.find("episode");
  episode.episode = number != entry.end() && number->is_number_integer() ? number->get<int>() : static_cast<int>(index) + 1;
  if (const auto model = entry.find("model"); model != entry.end() && model->is_string()) episode.model = model->get<std::string>();
  return episode;
}

} // namespace

TrainingCurve readTrainingCurve(const std::string& path) {
  TrainingCurve result;
  readReportObject(path, result, [&](const nlohmann::json& report) {
    const auto curve = report.find("curve");
    if (curve == report.end() || !curve->is_array())
      throw Error("not a training report: no 'curve' list (write one with tessera-cli rl train --json)");
    if (curve->empty()) throw Error("the training curve has no episodes");
    result.cost = optionalString(report, "cost");
    for (size_t i = 0; i < curve->size(); ++i) result.episodes.push_back(readEpisode((*curve)[i], i));
  });
  return result;
}

void readReportObject(const std::string& path, ReportRun& run, const std::function<void(const nlohmann::json& report)>& read) {
  readReportFile(path, [&](const std::string& text) {
    const nlohmann::json report = nlohmann::json::parse(text);
    if (!report.is_object()) throw Error("not a training report (expected a JSON object)");
    run.path = path;
    run.agent = optionalString(report, "agent");
    if (const auto seed = report.find("seed"); seed != report.end() && seed->is_number_unsigned()) run.seed = seed->get<uint64_t>();
    if (const auto models = report.find("models"); models != report.end() && models->is_array())
      for (const auto& model : *models)
        if (model.is_string()) run.models.push_back(model.get<std::string>());
    read(report);
  });
}

double finiteNumber(const nlohmann::json& entry, const char* key, const std::string& where) {
  const auto value = entry.find(key);
  if (value == entry.end() || !value->is_number()) throw Error(where + " has no numeric '" + key + "'");
  const double number = value->get<double>();
  if (!std::isfinite(number)) throw Error(where + " has a '" + key + "' that is not finite");
  return number;
}

std::string optionalString(const nlohmann::json& entry, const char* key) {
  const auto value = entry.find(key);
  if (value == entry.end()) return {};
  if (!value->is_string()) throw Error(std::string("'") + key + "' is not a string");
  return value->get<std::string>();
}

const nlohmann::json& listNamed(const nlohmann::json& report, const char* key, const std::string& hint) {
  const auto list = report.find(key);
  if (list == report.end() || !list->is_array() || list->empty()) throw Error(std::string("no '") + key + "' list " + hint);
  return *list;
}

void readReportFile(const std::string& path, const std::function<void(const std::string& text)>& read) {
  try {
    read(readFileBytes(path, kMaxReportBytes));
  } catch (const nlohmann::json::exception& e) {
    throw errorInFile(path, std::string("not valid JSON: ") + e.what());
  } catch (const Error& e) {
    const std::string message = e.what();
    if (message.rfind(path + ":", 0) == 0) throw;
    throw errorInFile(path, message);
  }
}

} // namespace tessera
