// The session the window works in: one connection to one .tsession file (used by one thread at a
// time; SessionController moves it between its worker and no one else), the model the window shows
// from it, and on-demand loading of candidate graphs (listing never loads one).
//
// Where sessions go: File ▸ New Session / Save Session As put one where the user chooses. A run on
// a model opened from ONNX with no session open is recorded in the model's default session,
// <app data dir>/sessions/<model name>.tsession (QStandardPaths::AppDataLocation; on Linux
// ~/.local/share/Tessera/tessera/sessions), so that repeated runs on one model collect in one file
// and nothing is written next to the user's models unasked.
#pragma once

#include "search/Candidate.h"
#include "session/Session.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tessera::gui {

class SessionDocument {
public:
  // Throws tessera::Error naming the file and the problem; the file is left as it was.
  static std::unique_ptr<SessionDocument> open(const QString& path);
  static std::unique_ptr<SessionDocument> create(const QString& path);
  static std::unique_ptr<SessionDocument> openOrCreate(const QString& path);
  // `directory` empty: the app data dir's "sessions" folder.
  static QString defaultPathFor(const QString& modelPath, const QString& directory = {});

  QString path() const;
  Session& session() { return session_; }

  // The model a session opened by itself shows: that of the newest run, else the newest model.
  std::optional<ModelRecord> modelToShow();
  // The stored model with this source path and op count, if the session has one.
  std::optional<int64_t> findModel(const QString& sourcePath, size_t opCount);

  std::vector<CandidateRecord> candidates(); // no graph bytes
  std::vector<RunRecord> runs();

  // Reads one candidate's graph and the origin of each of its nodes (by NodeId; a node the
  // provenance does not name comes from the original). Throws tessera::Error.
  struct LoadedCandidate {
    std::shared_ptr<const Graph> graph;
    std::vector<NodeOrigin> origins;
  };
  LoadedCandidate loadCandidate(int64_t candidateId);
  // The same through any connection (a worker's own: SQLite connections stay on their thread).
  static LoadedCandidate loadCandidate(Session& session, int64_t candidateId);

  // Writes a consistent copy of the session to `path` (which must not exist) and switches to it.
  // Throws tessera::Error.
  void saveAs(const QString& path);

private:
  explicit SessionDocument(Session session) : session_(std::move(session)) {}

  Session session_;
};

} // namespace tessera::gui
