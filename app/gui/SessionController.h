// The session the window works in and every SQLite operation on it: opening a .tsession, opening
// (or creating) the model's default session before a run, New Session, Save Session As, and listing
// its candidates and runs for the Candidates dock. Each runs on one serial worker, so the document's
// connection is only ever used by one thread at a time (SQLite lets a connection change threads on
// that condition); results and errors arrive as signals on the UI thread, and a request that
// replaces the document supersedes those still in flight.
#pragma once

#include "SessionDocument.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace tessera::gui {

class SessionController : public QObject {
  Q_OBJECT

public:
  explicit SessionController(QObject* parent = nullptr);
  ~SessionController() override; // waits for the operation in flight

  // The open document, for reading while no operation is in flight (tests); nullptr when none.
  SessionDocument* document() const { return document_.get(); }
  QString path() const { return path_; } // empty when no session is open
  // The model runs are recorded against: 0 until one is known (the next run adds it).
  int64_t modelId() const { return modelId_; }
  void setModelId(int64_t id) { modelId_ = id; }
  const std::vector<RunRecord>& runs() const { return runs_; } // as last listed
  // The newest run of `modelId` in the last listing; 0 when none.
  int64_t newestRunOf(int64_t modelId) const;
  bool isBusy() const { return pending_ > 0; }

  // Each of these returns at once; the outcome is a signal below.
  void open(const QString& path);   // opened / openFailed
  void create(const QString& path); // created / failed
  void saveAs(const QString& path); // savedAs / failed
  // The model's default session at `path`, unless a session is open by the time it is: always
  // defaultSessionReady, with an error when none could be opened (the run goes on unrecorded).
  void openDefault(const QString& path, const QString& modelPath, size_t opCount);
  void close(); // no session: an empty listing at once
  void refresh(); // candidatesListed, or failed

  // Where the last finished operation ran: never the UI thread.
  std::thread::id lastOperationThread() const { return lastOperationThread_; }

signals:
  // `modelId` 0: the session holds no model yet.
  void opened(const QString& path, qint64 modelId, const QString& modelName);
  void openFailed(const QString& path, const QString& message);
  void created(const QString& path);
  void savedAs(const QString& path);
  void defaultSessionReady(const QString& error);
  void failed(const QString& title, const QString& message);
  // Emitted before opened/created/savedAs, and after each refresh; `path` empty: no session.
  void candidatesListed(const QString& path, const std::vector<tessera::CandidateRecord>& candidates,
                        const std::vector<tessera::RunRecord>& runs);

private:
  struct Listing {
    std::vector<CandidateRecord> candidates;
    std::vector<RunRecord> runs;
  };
  struct Result {
    std::shared_ptr<SessionDocument> document;
    Listing listing;
    int64_t modelId = 0; // the model to show or to record against, when known
    QString modelName;
    QString error;
    std::thread::id thread;
  };
  using Work = std::function<void(Result&)>;
  using Done = std::function<void(Result&)>;

  // Runs `work` on the serial worker (errors caught into Result::error), then `done` on the UI thread.
  void submit(Work work, Done done);
  // Makes `result`'s document the open one, as `path`, with its listing.
  void adopt(Result& result, const QString& path);
  // Drops a reference to a document on the worker: closing a connection checkpoints its WAL.
  void release(std::shared_ptr<SessionDocument> document);
  void emitListing(const Listing& listing);
  static Listing list(SessionDocument& document);

  QThreadPool worker_; // one thread: operations never overlap on a connection
  std::shared_ptr<SessionDocument> document_;
  QString path_;
  int64_t modelId_ = 0;
  std::vector<RunRecord> runs_; // as last listed
  std::thread::id lastOperationThread_;
  int pending_ = 0;
  int documentGeneration_ = 0; // the newest request replacing the document; older results are dropped
  int listingGeneration_ = 0;  // the newest listing; older ones are dropped
};

} // namespace tessera::gui
