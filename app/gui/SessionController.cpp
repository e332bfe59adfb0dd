#include "SessionController.h"

#include "BackgroundWork.h"

#include <QFutureWatcher>

#include <algorithm>

namespace tessera::gui {

SessionController::SessionController(QObject* parent) : QObject(parent) {
  worker_.setMaxThreadCount(1);
  worker_.setObjectName(QStringLiteral("tessera-session"));
}

SessionController::~SessionController() {
  release(std::move(document_));
  worker_.waitForDone();
}

int64_t SessionController::newestRunOf(int64_t modelId) const {
  int64_t newest = 0;
  for (const RunRecord& run : runs_)
    if (run.info.modelId == modelId) newest = std::max(newest, run.id);
  return newest;
}

void SessionController::open(const QString& path) {
  const int generation = ++documentGeneration_;
  ++listingGeneration_;
  submit(
      [path](Result& result) {
        result.document = SessionDocument::open(path);
        if (std::optional<ModelRecord> model = result.document->modelToShow()) {
          result.modelId = model->id;
          result.modelName = QString::fromStdString(model->name);
        }
        result.listing = list(*result.document);
      },
      [this, path, generation](Result& result) {
        if (generation != documentGeneration_) return release(std::move(result.document));
        if (!result.error.isEmpty()) {
          // Nothing changes: the open session stays as it was.
          QString message = result.error;
          if (!message.contains(path)) message = path + QStringLiteral(": ") + message;
          emit openFailed(path, message);
          return release(std::move(result.document));
        }
        adopt(result, path);
        emit opened(path, modelId_, result.modelName);
      });
}

void SessionController::create(const QString& path) {
  const int generation = ++documentGeneration_;
  ++listingGeneration_;
  submit([path](Result& result) { result.document = SessionDocument::create(path); },
         [this, path, generation](Result& result) {
           if (generation != documentGeneration_) return release(std::move(result.document));
           if (!result.error.isEmpty()) {
             emit failed(tr("New session"), result.error);
             return release(std::move(result.document));
           }
           adopt(result, path); // the open model is added at its first run here
           emit created(path);
         });
}

void SessionController::saveAs(const QString& path) {
  if (!document_) return;
  const int generation = documentGeneration_;
  ++listingGeneration_;
  submit(
      [path, document = document_](Result& result) {
        document->saveAs(path);
        result.listing = list(*document);
        result.document = document;
      },
      [this, path, generation](Result& result) {
        if (generation != documentGeneration_) return release(std::move(result.document));
        if (!result.error.isEmpty()) {
          emit failed(tr("Save session"), result.error);
          return;
        }
        result.modelId = modelId_; // the same session under a new name
        adopt(result, path);
        emit savedAs(path);
      });
}

void SessionController::openDefault(const QString& path, const QString& modelPath, size_t opCount) {
  const int generation = documentGeneration_; // not a new request of the user's: anything else wins
  submit(
      [path, modelPath, opCount](Result& result) {
        result.document = SessionDocument::openOrCreate(path);
        if (std::optional<int64_t> id = result.document->findModel(modelPath, opCount)) result.modelId = *id;
        result.listing = list(*result.document);
      },
      [this, path, generation](Result& result) {
        if (!result.error.isEmpty()) {
          release(std::move(result.document));
          emit defaultSessionReady(result.error);
          return;
        }
        if (generation == documentGeneration_ && !document_) adopt(result, path);
        else release(std::move(result.document));
        emit defaultSessionReady({});
      });
}

void SessionController::close() {
  ++documentGeneration_;
  ++listingGeneration_;
  release(std::move(document_));
  path_.clear();
  modelId_ = 0;
  emitListing({});
}

void SessionController::refresh() {
  if (!document_) {
    emitListing({});
    return;
  }
  const int generation = ++listingGeneration_;
  submit([document = document_](Result& result) { result.listing = list(*document); },
         [this, generation](Result& result) {
           if (generation != listingGeneration_) return;
           if (!result.error.isEmpty()) {
             emit failed(tr("Session"), result.error);
             return;
           }
           emitListing(result.listing);
         });
}

void SessionController::submit(Work work, Done done) {
  ++pending_;
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done = std::move(done)] {
    watcher->deleteLater();
    --pending_;
    Result result = watcher->future().takeResult();
    lastOperationThread_ = result.thread;
    done(result);
  });
  watcher->setFuture(views::runInBackground(&worker_, [work = std::move(work)]() mutable {
    Result result;
    result.thread = std::this_thread::get_id();
    try {
      work(result);
    } catch (const std::exception& error) {
      result.error = QString::fromUtf8(error.what());
    }
    work = nullptr; // the documents it holds are let go here, on the worker
    return result;
  }));
}

void SessionController::adopt(Result& result, const QString& path) {
  if (document_ != result.document) release(std::move(document_));
  document_ = std::move(result.document);
  path_ = path;
  modelId_ = result.modelId;
  emitListing(result.listing);
}

void SessionController::release(std::shared_ptr<SessionDocument> document) {
  if (!document) return;
  (void)views::runInBackground(&worker_, [document = std::move(document)]() mutable { document.reset(); });
}

void SessionController::emitListing(const Listing& listing) {
  runs_ = listing.runs;
  emit candidatesListed(path_, listing.candidates, runs_);
}

SessionController::Listing SessionController::list(SessionDocument& document) { return {document.candidates(), document.runs()}; }

} // namespace tessera::gui
