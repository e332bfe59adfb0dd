#include "ModelLoader.h"

#include "BackgroundWork.h"
#include "CostModels.h"
#include "SessionDocument.h"

#include "onnx/OnnxImport.h"
#include "session/Session.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace tessera::gui {

LoadedModel loadModel(const QString& path, const std::string& costSpec, const onnx_io::ShapeBindings& shapes) {
  QElapsedTimer timer;
  timer.start();
  LoadedModel loaded;
  loaded.path = path;
  loaded.shapes = shapes;
  try {
    std::vector<onnx_io::DeclaredInput> inputs = onnx_io::bindableInputs(path.toStdString());
    if (!onnx_io::axesLeftOpen(inputs, shapes).empty()) {
      loaded.openInputs = std::move(inputs);
      loaded.seconds = timer.nsecsElapsed() / 1e9;
      return loaded;
    }
    auto graph = std::make_shared<const Graph>(onnx_io::importOnnxFile(path.toStdString(), shapes));
    std::string title = graph->info.name.empty() || graph->info.name == "tessera" ? QFileInfo(path).completeBaseName().toStdString()
                                                                                  : graph->info.name;
    loaded.snapshot = views::GraphSnapshot::make(std::move(graph), *sharedCostModel(costSpec), title);
  } catch (const std::exception& error) {
    loaded.error = QString::fromUtf8(error.what());
    if (!loaded.error.contains(path)) loaded.error = path + QStringLiteral(": ") + loaded.error;
  }
  loaded.seconds = timer.nsecsElapsed() / 1e9;
  return loaded;
}

QFuture<LoadedModel> loadModelAsync(const QString& path, const std::string& costSpec, const onnx_io::ShapeBindings& shapes) {
  return views::runInBackground([path, costSpec, shapes] { return loadModel(path, costSpec, shapes); });
}

QFuture<LoadedModel> loadSessionModelAsync(const QString& sessionPath, int64_t modelId, const std::string& title,
                                           const std::string& costSpec) {
  return views::runInBackground([sessionPath, modelId, title, costSpec] {
    QElapsedTimer timer;
    timer.start();
    LoadedModel loaded;
    loaded.path = sessionPath;
    loaded.sessionModelId = modelId;
    try {
      Session session = Session::open(sessionPath.toStdString());
      auto graph = std::make_shared<const Graph>(session.loadModel(modelId));
      loaded.snapshot = views::GraphSnapshot::make(std::move(graph), *sharedCostModel(costSpec), title);
    } catch (const std::exception& error) {
      loaded.error = QString::fromUtf8(error.what());
      if (!loaded.error.contains(sessionPath)) loaded.error = sessionPath + QStringLiteral(": ") + loaded.error;
    }
    loaded.seconds = timer.nsecsElapsed() / 1e9;
    return loaded;
  });
}

QFuture<std::vector<LoadedCandidate>> loadCandidatesAsync(const QString& sessionPath, std::vector<int64_t> ids,
                                                          std::vector<std::string> titles, const std::string& costSpec) {
  return views::runInBackground([sessionPath, ids = std::move(ids), titles = std::move(titles), costSpec] {
    std::vector<LoadedCandidate> loaded(ids.size());
    try {
      Session session = Session::open(sessionPath.toStdString());
      std::shared_ptr<CostModel> cost = sharedCostModel(costSpec);
      for (size_t i = 0; i < ids.size(); ++i) {
        SessionDocument::LoadedCandidate stored = SessionDocument::loadCandidate(session, ids[i]);
        loaded[i].id = ids[i];
        loaded[i].origins = std::move(stored.origins);
        loaded[i].snapshot = views::GraphSnapshot::make(std::move(stored.graph), *cost, i < titles.size() ? titles[i] : std::string());
      }
    } catch (const std::exception& error) {
      QString message = QString::fromUtf8(error.what());
      if (!message.contains(sessionPath)) message = sessionPath + QStringLiteral(": ") + message;
      for (LoadedCandidate& candidate : loaded) candidate.error = message;
    }
    return loaded;
  });
}

} // namespace tessera::gui
