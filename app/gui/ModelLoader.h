// Opening a model off the UI thread: ONNX import and pricing by the current cost model run on a
// worker; the result (or the error naming the file) comes back as a future.
#pragma once

#include "GraphSnapshot.h"

#include <QFuture>
#include <QString>

namespace tessera::gui {

struct LoadedModel {
  QString path;
  views::GraphSnapshot snapshot; // empty when loading failed
  QString error;                 // what went wrong, naming the file
  double seconds = 0;
};

QFuture<LoadedModel> loadModelAsync(const QString& path, const std::string& costSpec);
// The same, on the calling thread.
LoadedModel loadModel(const QString& path, const std::string& costSpec);

} // namespace tessera::gui
