// Opening a model off the UI thread: ONNX import (from a file or from a session) and pricing by the
// current cost model run on a worker; the result (or the error naming the file) comes back as a future.
#pragma once

#include "GraphSnapshot.h"

#include <QFuture>
#include <QString>

namespace tessera::gui {

struct LoadedModel {
  QString path;                  // the ONNX file, or the session the model was read from
  int64_t sessionModelId = 0;    // the model's id when it came from a session
  views::GraphSnapshot snapshot; // empty when loading failed
  QString error;                 // what went wrong, naming the file
  double seconds = 0;
};

QFuture<LoadedModel> loadModelAsync(const QString& path, const std::string& costSpec);
// The same, on the calling thread.
LoadedModel loadModel(const QString& path, const std::string& costSpec);

// Model `modelId` of the session at `sessionPath`, read with the worker's own connection.
QFuture<LoadedModel> loadSessionModelAsync(const QString& sessionPath, int64_t modelId, const std::string& title,
                                           const std::string& costSpec);

} // namespace tessera::gui
