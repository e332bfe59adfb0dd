#include "SearchSetup.h"

#include "session/FinishedRun.h"
#include "session/Session.h"
#include "session/SessionRecorder.h"

#include <filesystem>

namespace tessera::cli {

struct SessionRecording::State {
  Session session;
  int64_t modelId = 0;
  int64_t runId = 0;
  EventStream& events;
  std::unique_ptr<SessionRecorder> recorder;
};

namespace {
// The same model file recorded again (a second run) is stored once.
int64_t findOrAddModel(Session& session, const std::string& modelPath, const Graph& model) {
  const std::string name = std::filesystem::path(modelPath).stem().string();
  const std::string source = std::filesystem::absolute(modelPath).lexically_normal().string();
  for (const ModelRecord& record : session.models())
    if (record.sourcePath == source && record.name == name && record.opCount == model.opCount()) return record.id;
  return session.addModel(name, source, model);
}
} // namespace

SessionRecording::SessionRecording(const std::string& sessionPath, const std::string& modelPath, const Graph& model,
                                   EventStream& events)
    : state_(new State{Session::openOrCreate(sessionPath), 0, 0, events, nullptr}) {
  state_->modelId = findOrAddModel(state_->session, modelPath, model);
}

SessionRecording::~SessionRecording() = default;

void SessionRecording::begin(const std::string& strategy, const SearchOptions& options, const std::string& costSpec) {
  RunInfo info;
  info.modelId = state_->modelId;
  info.strategy = strategy;
  info.parameters = options.parameters;
  info.parameters["node_limit"] = std::to_string(options.nodeLimit);
  info.parameters["time_limit"] = std::to_string(options.timeLimitSeconds);
  info.parameters["extract"] = options.extractMethod;
  if (strategy == "eqsat") {
    info.parameters["iteration_limit"] = std::to_string(options.iterationLimit);
    info.parameters["k_multi"] = std::to_string(options.multiIterations);
  }
  info.seed = options.seed;
  info.costSpec = costSpec;
  state_->runId = state_->session.beginRun(info);
  state_->recorder = std::make_unique<SessionRecorder>(state_->session, state_->runId);
  state_->events.attach(state_->recorder.get());
}

void SessionRecording::finish(const SearchResult& result, const CostModel& cost) {
  state_->recorder->finish(); // rethrows a recording error: the user asked for a session
  recordFinishedRun(state_->session, state_->runId, result, cost);
}

} // namespace tessera::cli
