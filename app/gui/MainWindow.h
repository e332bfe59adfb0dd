// The explorer's main window: the graph view in the centre (tabs for compare and the live e-graph
// and MCTS views), docks for properties, the run panel, the session's candidates and the log;
// menus, recent files, drag and drop, persisted layout, light/dark palettes; opening models and
// sessions and running searches off the UI thread, every run recorded in a session.
#pragma once

#include "CandidateExport.h"
#include "GraphSnapshot.h"
#include "ModelLoader.h"

#include <QDialog>
#include <QFuture>
#include <QList>
#include <QMainWindow>
#include <QMap>

class QAction;
class QDockWidget;
class QTextBrowser;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QTabWidget;

namespace tessera::views {
class AgentDecisionPanel;
class CompareWidget;
class EGraphView;
class LiveRun;
class MctsTreeView;
class RulePanel;
class GraphView;
class TrainingCurvesPanel;
class PropertiesPanel;
} // namespace tessera::views

namespace tessera::gui {

class CandidatesController;
class CandidatesPanel;
class GraphViewActions;
class JobsPanel;
class RecentFiles;
class ThemeController;
class TrainingPage;
class DreamPage;
class SipPage;
class TuningPage;
class ReplayDocks;
class RunController;
class RunPanel;
class SearchRunner;
class SessionController;
class SessionDocument;
struct SearchOutcome;

struct MainWindowOptions {
  bool persistSettings = true;   // restore and save layout, recent files, theme (off for screenshots and tests)
  bool interactiveErrors = true; // errors open a dialog; otherwise they are logged and signalled only
  QString sessionDirectory;      // where a model's default session goes; empty: the app data dir
};

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // .onnx opens on a worker (closing the session of the previous model); a .tsession opens with
  // its model, runs and candidates. A model with input sizes that `shapes` leaves open first asks
  // for them (ShapeBindingsDialog; shapesDialogShown is emitted with it).
  void openPath(const QString& path, const onnx_io::ShapeBindings& shapes = {});
  // File ▸ New Session / Save Session As without their dialogs, on the session's worker: true when
  // the request is under way (sessionCreated / sessionSavedAs or sessionFailed follows), false when
  // there is nothing to do (no path; no session to save).
  bool newSession(const QString& path);
  bool saveSessionAs(const QString& path);
  // Writes the selected candidate (else the last run's best) as ONNX for `runtime` (empty: not
  // timed; CandidateExport.h says what a runtime changes), here and now; empty on success, else why not.
  QString exportCandidate(const QString& path, const QString& runtime = {});
  // Starts `strategy` on the open model (once its session is open, on a worker, the first time);
  // false (with a message in the log) when it cannot.
  bool startRun(const QString& strategy);
  // Starts `strategy` as soon as the model being opened is ready.
  void runWhenLoaded(const QString& strategy) { runOnLoad_ = strategy; }
  // graph, egraph, mcts, compare, training or tuning.
  void showView(const QString& name);
  // The Training view shows these reports (tessera-cli rl train --json) instead of what it shows
  // (read when the view is first chosen).
  void showTrainingReports(const QStringList& paths);
  // File ▸ Load Rules without its dialog: the next runs use the rules of `path` (empty: the built-in
  // pack), checked numerically on a worker as the CLI's --rules checks them; the Rules dock lists
  // them. rulesLoaded or rulesFailed follows. False (nothing starts) while a run is in flight.
  bool loadRules(const QString& path);
  // The shipped X-RLflow agent's training report, the Training view's default; empty when absent.
  static QString shippedTrainingReportPath();
  QString currentViewName() const;

  bool isBusy() const; // loading, laying out, running, tuning, reading training reports or a tuning database, or a session or candidate operation in flight
  // Help ▸ Teaching Sample: opens the bundled phase_ordering.tsession and shows its guide.
  void openTeachingSample();
  // The bundled teaching session, empty when this installation has none.
  static QString teachingSessionPath();
  QMap<QString, int> itemsShown() const;
  // Per live view, the batches of events it received per second during the last run.
  QMap<QString, double> updatesPerSecond() const;
  const views::GraphSnapshot& original() const;
  const SearchOutcome* lastOutcome() const;
  QString lastError() const { return lastError_; }
  // The open session; read it only while no operation is in flight (see SessionController).
  SessionDocument* session() const;
  // What the graph view shows: the original, or the candidate with this id.
  qint64 shownCandidate() const;
  double lastOpenSeconds() const { return openSeconds_; }
  // Candidate graphs read from the session so far (listing reads none).
  size_t candidateGraphsLoaded() const;

  views::GraphView* graphView() const { return graphView_; }
  views::CompareWidget* compareWidget() const { return compare_; }
  views::PropertiesPanel* propertiesPanel() const { return properties_; }
  RunPanel* runPanel() const { return runPanel_; }
  ReplayDocks* replayDocks() const { return replay_; }
  views::LiveRun* liveRun() const { return liveRun_; }
  views::EGraphView* egraphView() const { return egraphView_; }
  views::MctsTreeView* mctsView() const { return mctsView_; }
  views::RulePanel* rulePanel() const { return rulePanel_; }
  QDockWidget* guideDock() const { return guideDock_; }
  QDockWidget* agentDecisionDock() const { return agentDock_; }
  JobsPanel* jobsPanel() const { return jobs_; } // the shards of a launch (tessera-cli --launcher)
  views::AgentDecisionPanel* agentDecisionPanel() const { return agentDecision_; }
  views::TrainingCurvesPanel* trainingPanel() const; // nullptr until the Training tab is first chosen
  TrainingPage* trainingPage() const { return training_; }
  DreamPage* dreamPage() const { return dream_; }
  TuningPage* tuningPage() const { return tuning_; } // its widgets are made when the Tuning tab is first chosen
  SipPage* sipPage() const { return sip_; }
  CandidatesPanel* candidatesPanel() const { return candidates_; }
  SearchRunner* searchRunner() const { return runner_; }
  SessionController* sessionController() const { return sessionController_; }
  CandidatesController* candidatesController() const { return candidatesController_; }
  RunController* runController() const { return runController_; }

signals:
  void modelOpened(const QString& path);
  void modelFailed(const QString& message);
  void shapesDialogShown(QDialog* dialog);
  void sessionOpened(const QString& path);
  void sessionCreated(const QString& path);
  void sessionSavedAs(const QString& path);
  void sessionFailed(const QString& message); // New Session, Save Session As or listing failed
  void runFinished();
  void runFailed(const QString& message);
  void rulesLoaded(const QString& source, int rules);
  void rulesFailed(const QString& message);

protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void buildActions();
  void buildMenus();
  void buildDocks();
  void connectControllers();
  void restoreSettings();
  void saveSettings();

  void openDialog();
  // Shows the model `future` loads unless a later open (a newer `generation`) replaced it.
  void loadModel(QFuture<LoadedModel> future, int generation);
  void onModelLoaded(const LoadedModel& loaded);
  // The open dialog for the sizes `loaded` left open; accepting it opens the model with them.
  void askForInputSizes(const LoadedModel& loaded);
  // Lists the measured backends once no model is opening and no run starting (see the .cpp).
  void discoverBackendsOnceSettled();
  void onRunFinished();
  void openSession(const QString& path);
  void onSessionOpened(const QString& path, qint64 modelId, const QString& modelName);
  // Replays, in the live views and the timeline, the stored run that produced the candidate.
  void replayRunOf(qint64 candidateId);
  void replayNewestRun(int64_t modelId);
  void showTeachingGuideFor(const QString& path);
  void exportCandidateDialog();
  // The open model, the graph Export writes, and where and for which runtime.
  CandidateExport candidateExport(const QString& path, const QString& runtime) const;
  void newSessionDialog();
  void saveSessionAsDialog();
  void showProperties(const views::GraphSnapshot& snapshot, qint64 node);
  void exportView(const QString& suffix);
  void reportError(const QString& title, const QString& message);
  void log(const QString& line);
  void updateStatus();
  views::GraphView* activeGraphView() const;
  // Marks ops of the model's graph (an agent's rewrite) in the graph view while it shows the model.
  void markAgentOps(const std::vector<NodeId>& originalOps, bool focus);

  MainWindowOptions options_;
  SessionController* sessionController_ = nullptr;
  CandidatesController* candidatesController_ = nullptr;
  RunController* runController_ = nullptr;
  QString path_;
  QString runOnLoad_;
  QString lastError_;
  int loadGeneration_ = 0; // the newest open; an older model arriving late is dropped
  int sessionLoadGeneration_ = 0; // the open that the session being opened belongs to
  bool loading_ = false;
  qint64 openStartedMs_ = 0;
  double loadSeconds_ = 0;
  double openSeconds_ = 0;

  QTabWidget* tabs_ = nullptr;
  views::LiveRun* liveRun_ = nullptr;
  views::EGraphView* egraphView_ = nullptr;
  views::MctsTreeView* mctsView_ = nullptr;
  views::RulePanel* rulePanel_ = nullptr;
  views::GraphView* graphView_ = nullptr;
  views::CompareWidget* compare_ = nullptr;
  views::PropertiesPanel* properties_ = nullptr;
  RunPanel* runPanel_ = nullptr;
  CandidatesPanel* candidates_ = nullptr;
  SearchRunner* runner_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  ReplayDocks* replay_ = nullptr;
  QTextBrowser* guide_ = nullptr;
  QDockWidget* guideDock_ = nullptr;
  views::AgentDecisionPanel* agentDecision_ = nullptr;
  QDockWidget* agentDock_ = nullptr;
  JobsPanel* jobs_ = nullptr;
  bool agentDockRaised_ = false; // raised once per log that holds agent decisions
  std::vector<NodeId> agentOps_; // the graph view's marks when they are an agent's rewrite
  TrainingPage* training_ = nullptr;
  DreamPage* dream_ = nullptr;
  TuningPage* tuning_ = nullptr;
  SipPage* sip_ = nullptr;
  QLabel* modelStatus_ = nullptr;

  QAction* openAction_ = nullptr;
  QAction* exportOnnxAction_ = nullptr;
  QAction* newSessionAction_ = nullptr;
  QAction* saveSessionAsAction_ = nullptr;
  QAction* exportPngAction_ = nullptr;
  QAction* exportSvgAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  GraphViewActions* viewActions_ = nullptr;
  ThemeController* theme_ = nullptr;
  RecentFiles* recent_ = nullptr;
};

} // namespace tessera::gui
