#include "RunRecording.h"

#include "run/FinishedRun.h"
#include "session/Session.h"
#include "session/SessionRecorder.h"
#include "support/Error.h"

#include <filesystem>
#include <optional>

namespace tessera {

struct RunRecording::State {
  Session session;
  int64_t modelId = 0;
  int64_t runId = 0;
  std::optional<SessionRecorder> recorder;
  bool finished = false; // finish or finishFailed ran
};

namespace {

int64_t findOrAddModel(Session& session, const RecordedModel& model, const Graph& graph) {
  if (model.id != 0) return model.id;
  for (const ModelRecord& record : session.models())
    if (record.sourcePath == model.sourcePath && record.name == model.name && record.opCount == graph.opCount()) return record.id;
  return session.addModel(model.name, model.sourcePath, graph);
}

} // namespace

RecordedModel recordedModelOf(const std::string& modelPath) {
  const std::filesystem::path path(modelPath);
  return {0, path.stem().string(), std::filesystem::absolute(path).lexically_normal().string()};
}

RunRecording::RunRecording(const std::string& sessionPath, const RecordedModel& model, const Graph& graph)
    : state_(new State{Session::openOrCreate(sessionPath)}) {
  state_->modelId = findOrAddModel(state_->session, model, graph);
}

RunRecording::~RunRecording() {
  // A run begun and never finished ended by an error its entry point did not record (or a bug):
  // the session says so rather than keeping a run with no finish.
  if (!state_ || !state_->recorder || state_->finished) return;
  try {
    finishFailed("the run ended before it finished, by an error that was not recorded");
  } catch (...) { // a destructor never throws; the session stays as the last transaction left it
  }
}

void RunRecording::begin(const RunRequest& request) { begin(runInfoFor(request, state_->modelId)); }

void RunRecording::begin(RunInfo info) {
  if (state_->recorder) throw Error("a run recording is begun once");
  info.modelId = state_->modelId;
  state_->runId = state_->session.beginRun(info);
  state_->recorder.emplace(state_->session, state_->runId);
}

EventSink& RunRecording::sink() {
  if (!state_->recorder) throw Error("a run recording receives events after begin()");
  return *state_->recorder;
}

std::vector<int64_t> RunRecording::finish(const SearchResult& result, const CostModel& cost) {
  if (!state_->recorder) throw Error("a run recording is finished after begin()");
  state_->finished = true;
  state_->recorder->finish(); // rethrows a recording error: the caller asked for a session
  return recordFinishedRun(state_->session, state_->runId, result, cost);
}

void RunRecording::finishFailed(const std::string& why) {
  if (!state_->recorder || state_->finished) return;
  state_->finished = true;
  state_->recorder->finish();
  RunSummary summary;
  summary.stopReason = "failed: " + why;
  state_->session.finishRun(state_->runId, summary);
}

int64_t RunRecording::modelId() const { return state_->modelId; }
int64_t RunRecording::runId() const { return state_->runId; }

} // namespace tessera
