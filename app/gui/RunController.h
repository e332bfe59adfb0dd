// Running searches on the open model: starting one (after the model's default session opens on the
// session's worker, when no session is open yet), and keeping the run panel, the Run actions and the
// status bar's step and best labels in step with the SearchRunner until the run's outcome is shown.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QLabel;
class QStatusBar;

namespace tessera {
class Graph;
}

namespace tessera::gui {

class CandidatesController;
class ReplayDocks;
class RunPanel;
class SearchRunner;
class SessionController;
struct SearchOutcome;

class RunController : public QObject {
  Q_OBJECT

public:
  // Adds its step and best labels to `statusBar`; `sessionDirectory` is where a model's default
  // session goes (empty: the app data dir).
  RunController(SearchRunner* runner, SessionController* session, CandidatesController* candidates, RunPanel* runPanel,
                ReplayDocks* replay, QStatusBar* statusBar, QString sessionDirectory, QObject* parent = nullptr);
  ~RunController() override;
  // The status bar's note of what measuring waits for the run to end; empty when nothing waits.
  QString measuringWaitText() const;

  // A newly opened model at `path`: a run on the previous one is stopped and its outcome forgotten.
  void setModel(const QString& path);
  // Starts `strategy` on the open model (once its session is open, the first time); false (with a
  // message in the log) when it cannot.
  bool startRun(const QString& strategy);
  // Starts the strategy selected in the run panel.
  void startSelectedRun();

  // Run ▸ Start, Pause (Resume while paused), Single Step and Stop, each enabled when it applies.
  QAction* startAction() const { return startAction_; }
  QAction* pauseAction() const { return pauseAction_; }
  QAction* stepAction() const { return stepAction_; }
  QAction* stopAction() const { return stopAction_; }

  // The last run finished on the open model; nullptr when none has.
  const SearchOutcome* lastOutcome() const { return outcome_.get(); }
  bool isBusy() const; // a run in flight, or one waiting for its session

signals:
  // A run on the open model finished and its outcome is shown (a run on an earlier model ends silently).
  void finished();
  void failed(const QString& message);
  void sessionReady(); // the model's default session is open: runs are recorded there
  void logged(const QString& line);
  void errorReported(const QString& title, const QString& message);

private:
  void buildActions();
  void connectRunner();
  void onDefaultSessionReady(const QString& error);
  // Starts the run in the session that is open (unrecorded when none is).
  bool launchRun(const QString& strategy);
  void onRunFinished(std::shared_ptr<const SearchOutcome> outcome);
  void showOutcome(const SearchOutcome& outcome);

  SearchRunner* runner_;
  SessionController* session_;
  CandidatesController* candidates_;
  RunPanel* runPanel_;
  ReplayDocks* replay_;
  QStatusBar* statusBar_;
  QString sessionDirectory_;
  QString modelPath_;
  std::shared_ptr<const SearchOutcome> outcome_;
  QString pendingRun_; // the strategy waiting for the model's default session to open
  std::shared_ptr<const Graph> pendingRunModel_;

  QLabel* stepStatus_ = nullptr;
  QLabel* bestStatus_ = nullptr;
  QLabel* waitStatus_ = nullptr; // what measuring waits for the run to end (MeasuringPause.h)
  int waitWatch_ = 0;
  QAction* startAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* stopAction_ = nullptr;
};

} // namespace tessera::gui
