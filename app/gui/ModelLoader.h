// Opening a model or a stored candidate off the UI thread: SQLite reads, ONNX import (from a file or
// from a session) and pricing by the current cost model run on a worker; the result (or the error
// naming the file) comes back as a future.
#pragma once

#include "GraphSnapshot.h"

#include "onnx/ShapeBindings.h"
#include "search/Candidate.h"

#include <QFuture>
#include <QString>

#include <string>
#include <vector>

namespace tessera::gui {

struct LoadedModel {
  QString path;                  // the ONNX file, or the session the model was read from
  int64_t sessionModelId = 0;    // the model's id when it came from a session
  views::GraphSnapshot snapshot; // empty when loading failed
  QString error;                 // what went wrong, naming the file
  double seconds = 0;
  // Not loaded because `shapes` leaves input sizes open: the model's bindable inputs, for the
  // open dialog to ask for them (ShapeBindingsDialog), and the sizes it was given.
  std::vector<onnx_io::DeclaredInput> openInputs;
  onnx_io::ShapeBindings shapes;
};

// `shapes`: the sizes of the model's open input axes (--input-shape, --dim, the open dialog).
QFuture<LoadedModel> loadModelAsync(const QString& path, const std::string& costSpec, const onnx_io::ShapeBindings& shapes = {});
// The same, on the calling thread.
LoadedModel loadModel(const QString& path, const std::string& costSpec, const onnx_io::ShapeBindings& shapes = {});

// Model `modelId` of the session at `sessionPath`, read with the worker's own connection.
QFuture<LoadedModel> loadSessionModelAsync(const QString& sessionPath, int64_t modelId, const std::string& title,
                                           const std::string& costSpec);

struct LoadedCandidate {
  int64_t id = 0;
  views::GraphSnapshot snapshot;  // empty when loading failed
  std::vector<NodeOrigin> origins; // per node of the snapshot's graph
  QString error;
};

// Candidates `ids` (titled `titles`) of the session at `sessionPath`, read with the worker's own
// connection, in the order asked; the whole batch fails at its first error.
QFuture<std::vector<LoadedCandidate>> loadCandidatesAsync(const QString& sessionPath, std::vector<int64_t> ids,
                                                          std::vector<std::string> titles, const std::string& costSpec);

} // namespace tessera::gui
