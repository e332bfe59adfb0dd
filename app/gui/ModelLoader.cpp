#include "ModelLoader.h"

#include "onnx/OnnxImport.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace tessera::gui {

LoadedModel loadModel(const QString& path, const std::string& costSpec) {
  QElapsedTimer timer;
  timer.start();
  LoadedModel loaded;
  loaded.path = path;
  try {
    auto graph = std::make_shared<const Graph>(onnx_io::importOnnxFile(path.toStdString()));
    std::string title = graph->info.name.empty() || graph->info.name == "tessera" ? QFileInfo(path).completeBaseName().toStdString()
                                                                                  : graph->info.name;
    loaded.snapshot = views::GraphSnapshot::make(std::move(graph), costSpec, title);
  } catch (const std::exception& error) {
    loaded.error = QString::fromUtf8(error.what());
    if (!loaded.error.contains(path)) loaded.error = path + QStringLiteral(": ") + loaded.error;
  }
  loaded.seconds = timer.nsecsElapsed() / 1e9;
  return loaded;
}

QFuture<LoadedModel> loadModelAsync(const QString& path, const std::string& costSpec) {
  return QtConcurrent::run([path, costSpec] { return loadModel(path, costSpec); });
}

} // namespace tessera::gui
