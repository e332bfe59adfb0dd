#include "SessionDocument.h"

#include "support/Database.h"
#include "support/Error.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <unordered_map>

namespace tessera::gui {

std::unique_ptr<SessionDocument> SessionDocument::open(const QString& path) {
  return std::unique_ptr<SessionDocument>(new SessionDocument(Session::open(path.toStdString())));
}

std::unique_ptr<SessionDocument> SessionDocument::create(const QString& path) {
  return std::unique_ptr<SessionDocument>(new SessionDocument(Session::create(path.toStdString())));
}

std::unique_ptr<SessionDocument> SessionDocument::openOrCreate(const QString& path) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  return std::unique_ptr<SessionDocument>(new SessionDocument(Session::openOrCreate(path.toStdString())));
}

QString SessionDocument::defaultPathFor(const QString& modelPath, const QString& directory) {
  QString folder = directory.isEmpty()
                       ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions")
                       : directory;
  QString base = QFileInfo(modelPath).completeBaseName();
  if (base.isEmpty()) base = QStringLiteral("untitled");
  return QDir(folder).filePath(base + QStringLiteral(".tsession"));
}

QString SessionDocument::path() const { return QString::fromStdString(session_.path()); }

std::optional<ModelRecord> SessionDocument::modelToShow() {
  std::vector<ModelRecord> models = session_.models();
  if (models.empty()) return std::nullopt;
  std::vector<RunRecord> runs = session_.runs();
  auto newest = std::max_element(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) { return a.id < b.id; });
  if (newest != runs.end())
    for (const ModelRecord& model : models)
      if (model.id == newest->info.modelId) return model;
  return *std::max_element(models.begin(), models.end(), [](const ModelRecord& a, const ModelRecord& b) { return a.id < b.id; });
}

std::optional<int64_t> SessionDocument::findModel(const QString& sourcePath, size_t opCount) {
  std::string wanted = QFileInfo(sourcePath).absoluteFilePath().toStdString();
  for (const ModelRecord& model : session_.models())
    if (model.sourcePath == wanted && model.opCount == opCount) return model.id;
  return std::nullopt;
}

std::vector<CandidateRecord> SessionDocument::candidates() { return session_.candidates(); }

std::vector<RunRecord> SessionDocument::runs() { return session_.runs(); }

SessionDocument::LoadedCandidate SessionDocument::loadCandidate(int64_t candidateId) { return loadCandidate(session_, candidateId); }

SessionDocument::LoadedCandidate SessionDocument::loadCandidate(Session& session, int64_t candidateId) {
  LoadedCandidate loaded;
  auto graph = std::make_shared<Graph>(session.loadCandidate(candidateId));
  // Stored nodes are all named, so names carry the provenance across the ONNX round trip.
  std::unordered_map<std::string, NodeId> byName;
  for (NodeId id = 0; id < graph->size(); ++id) byName.emplace(graph->node(id).name, id);
  loaded.origins.resize(graph->size());
  for (const ProvenanceRecord& record : session.provenance(candidateId)) {
    auto it = byName.find(record.nodeName);
    if (it == byName.end()) continue;
    loaded.origins[it->second] = NodeOrigin{record.rule, record.step};
  }
  loaded.graph = std::move(graph);
  return loaded;
}

void SessionDocument::saveAs(const QString& path) {
  if (QFileInfo::exists(path)) throw errorInFile(path.toStdString(), "already exists; choose a new file name");
  {
    // VACUUM INTO writes one consistent file with the WAL folded in, while this connection stays
    // open. The statement is finalized here, before the connection it ran on closes below.
    sql::Statement copy(session_.database(), "VACUUM INTO ?");
    copy.bind(1, path.toStdString());
    copy.run();
  }
  session_ = Session::open(path.toStdString());
}

} // namespace tessera::gui
