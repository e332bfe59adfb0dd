// One run recorded in a session file, for the CLI and the explorer alike: the model once (the same
// file recorded again is found, not stored twice), the run with every parameter of its request,
// its events while it runs (through a SessionRecorder, in transactions, so a killed run leaves a
// readable session), then its candidates and the measured op costs it priced with, or why it failed.
#pragma once

#include "run/RunRequest.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera {

class CostModel;
class EventSink;
class Graph;
struct SearchResult;

// Which model a run is of: a session's model by id, or else the file it came from, found by its
// source path, name and size or added.
struct RecordedModel {
  int64_t id = 0;
  std::string name;       // shown in the session; the file's stem
  std::string sourcePath; // absolute
};

// The model of an ONNX file: its stem and absolute path.
RecordedModel recordedModelOf(const std::string& modelPath);

class RunRecording {
public:
  // Opens (or creates) the session and finds or adds the model. Throws tessera::Error naming the
  // file when it is not a session this program can write.
  RunRecording(const std::string& sessionPath, const RecordedModel& model, const Graph& graph);
  ~RunRecording();
  RunRecording(const RunRecording&) = delete;
  RunRecording& operator=(const RunRecording&) = delete;

  // Starts the run's row; attach sink() to the run's event stream before the search starts.
  void begin(const RunRequest& request);
  // The same with the row given whole (runInfoFor(RunPlan...)); its modelId is this recording's.
  void begin(RunInfo info);
  EventSink& sink();

  // Commits the events, then the candidates, the device's op costs and the summary; returns the
  // candidates' ids in the result's order. Rethrows an error recording met on the way.
  std::vector<int64_t> finish(const SearchResult& result, const CostModel& cost);
  // Commits the events and marks the run failed with `why`; nothing once the run is finished. A
  // recording destroyed after begin() without either marks its run failed itself.
  void finishFailed(const std::string& why);

  int64_t modelId() const;
  int64_t runId() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace tessera
