#include "MainWindow.h"

#include "BackgroundWork.h"
#include "CandidateExport.h"
#include "CandidatesController.h"
#include "CandidatesPanel.h"
#include "CostModels.h"
#include "GraphViewActions.h"
#include "JobsPanel.h"
#include "ModelLoader.h"
#include "RecentFiles.h"
#include "ReplayDocks.h"
#include "RunController.h"
#include "RunPanel.h"
#include "SearchRunner.h"
#include "SessionController.h"
#include "ShapeBindingsDialog.h"
#include "TeachingSample.h"
#include "ThemeController.h"
#include "TrainingPage.h"
#include "DreamPage.h"
#include "SipPage.h"
#include "tuning/SipListingModel.h"
#include "TuningPage.h"
#include "UserGuide.h"

#include "CandidateTableModel.h"
#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "PropertiesPanel.h"
#include "ViewExport.h"
#include "live/AgentDecisionModel.h"
#include "live/AgentDecisionPanel.h"
#include "live/EGraphView.h"
#include "live/LiveRun.h"
#include "live/MctsTreeView.h"
#include "live/ProvenancePanel.h"
#include "live/RulePanel.h"
#include "live/TeachingGuide.h"
#include "live/TimelineWidget.h"
#include "live/TrainingCurvesPanel.h"

#include "rewrite/DefaultRules.h"
#include "run/RulePack.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QTextBrowser>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextDocument>
#include <QTime>
#include <QTimer>
#include <QToolBar>

#include <set>

namespace tessera::gui {

namespace {

enum Tab { GraphTab, CompareTab, EGraphTab, MctsTab, TrainingTab, DreamTab, TuningTab, SipTab };

bool isModelFile(const QString& path) {
  QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == QLatin1String("onnx") || suffix == QLatin1String("tsession");
}

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent) : QMainWindow(parent), options_(options) {
  setWindowTitle(tr("Tessera"));
  setAcceptDrops(true);
  resize(1400, 900);

  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  graphView_ = new views::GraphView(tabs_);
  compare_ = new views::CompareWidget(tabs_);
  tabs_->insertTab(GraphTab, graphView_, tr("Graph"));
  tabs_->insertTab(CompareTab, compare_, tr("Compare"));
  egraphView_ = new views::EGraphView(tabs_);
  mctsView_ = new views::MctsTreeView(tabs_);
  tabs_->insertTab(EGraphTab, egraphView_, tr("E-graph"));
  tabs_->insertTab(MctsTab, mctsView_, tr("MCTS"));
  const QString shipped = shippedTrainingReportPath();
  training_ = new TrainingPage(shipped.isEmpty() ? QStringList() : QStringList{shipped}, tabs_);
  tabs_->insertTab(TrainingTab, training_, tr("Training"));
  // RLFlow's imagination beside reality, from the graph the Graph view shows.
  dream_ = new DreamPage(tabs_);
  dream_->setGraphSource([this] { return graphView_->graphScene()->snapshot(); });
  connect(graphView_->graphScene(), &views::GraphScene::layoutFinished, dream_, &DreamPage::graphShown);
  tabs_->insertTab(DreamTab, dream_, tr("Dream"));
  setCentralWidget(tabs_);
  connect(training_, &TrainingPage::loaded, this, [this](const QStringList& errors) {
    for (const QString& error : errors) log(tr("training report not shown: %1").arg(error));
  });
  tuning_ = new TuningPage(tabs_);
  tabs_->insertTab(TuningTab, tuning_, tr("Tuning"));
  sip_ = new SipPage(tabs_);
  tabs_->insertTab(SipTab, sip_, tr("SIP"));
  connect(tabs_, &QTabWidget::currentChanged, tuning_, [this](int tab) {
    if (tab == TuningTab) tuning_->build();
  });
  connect(tabs_, &QTabWidget::currentChanged, training_, [this](int tab) {
    if (tab == TrainingTab) training_->panel();
  });

  runner_ = new SearchRunner(this);
  // The live views follow the runner's batches through one hub; a new run starts a new log.
  liveRun_ = new views::LiveRun(this);
  connect(runner_, &SearchRunner::eventsArrived, liveRun_, [this](EventBatch batch) { liveRun_->applyEvents(*batch); });
  connect(runner_, &SearchRunner::runningChanged, liveRun_, [this](bool running) {
    if (running) liveRun_->clear();
  });
  connect(liveRun_, &views::LiveRun::stateChanged, egraphView_, &views::EGraphView::showState);
  connect(liveRun_, &views::LiveRun::stateChanged, mctsView_, &views::MctsTreeView::showState);
  // A new log (a run starting, a stored run replayed) must not inherit the previous one's layout,
  // framing or filters: its class and tree ids name other things.
  connect(liveRun_, &views::LiveRun::reset, egraphView_, &views::EGraphView::clear);
  connect(liveRun_, &views::LiveRun::reset, mctsView_, &views::MctsTreeView::clear);
  connect(runner_, &SearchRunner::finished, this, [this] {
    mctsView_->fitToView(); // the whole tree the run grew, not the corner framed when it was small
    egraphView_->fitToView(); // the e-graph it grew, framed legibly around the last step
  });
  buildDocks();
  sessionController_ = new SessionController(this);
  candidatesController_ = new CandidatesController(sessionController_, candidates_, runPanel_, graphView_, compare_, properties_, this);
  modelStatus_ = new QLabel(this);
  statusBar()->addPermanentWidget(modelStatus_);
  runController_ = new RunController(runner_, sessionController_, candidatesController_, runPanel_, replay_, statusBar(), options_.sessionDirectory, this);
  buildActions();
  buildMenus();
  connectControllers();

  connect(graphView_->graphScene(), &views::GraphScene::selectedNodeChanged, this, [this](qint64 node) {
    showProperties(graphView_->graphScene()->snapshot(), node);
    if (const NodeOrigin* origin = candidatesController_->originOf(node)) replay_->provenance()->explainOrigin(*origin);
  });
  connect(compare_, &views::CompareWidget::nodeSelected, this, [this](int side, qint64 node) {
    views::GraphView* view = side == 0 ? compare_->beforeView() : compare_->afterView();
    showProperties(view->graphScene()->snapshot(), node);
    const std::vector<NodeOrigin>& origins = compare_->afterOrigins();
    if (side == 1 && node >= 0 && static_cast<size_t>(node) < origins.size()) replay_->provenance()->explainOrigin(origins[node]);
  });
  connect(graphView_->graphScene(), &views::GraphScene::layoutFinished, this, [this] {
    if (openStartedMs_ == 0 || !graphView_->graphScene()->snapshot().graph) return;
    openSeconds_ = (QDateTime::currentMSecsSinceEpoch() - openStartedMs_) / 1000.0;
    openStartedMs_ = 0;
    views::GraphScene* scene = graphView_->graphScene();
    log(tr("shown %1 nodes and %2 edges in %3 s (import %4 s, Graphviz layout %5 s, scene %6 s)")
            .arg(scene->visibleNodeCount())
            .arg(scene->edgeItems().size())
            .arg(openSeconds_, 0, 'f', 2)
            .arg(loadSeconds_, 0, 'f', 2)
            .arg(scene->lastLayoutSeconds(), 0, 'f', 2)
            .arg(scene->lastBuildSeconds(), 0, 'f', 3));
  });
  connect(graphView_->graphScene(), &views::GraphScene::layoutFailed, this,
          [this](const QString& message) { reportError(tr("Layout failed"), message); });
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { updateStatus(); });

  connect(runPanel_, &RunPanel::costModelChanged, this, [this](const QString& spec) { candidatesController_->onCostModelChanged(spec); });
  connect(runPanel_, &RunPanel::stepIntervalChanged, replay_->timeline(), &views::TimelineWidget::setStepInterval);

  connect(candidates_, &CandidatesPanel::exportRequested, this, [this] { exportCandidateDialog(); });

  if (options_.persistSettings) restoreSettings();
  updateStatus();
  // Once the event loop runs: by then main() has asked for a model to open, if any.
  QTimer::singleShot(0, this, &MainWindow::discoverBackendsOnceSettled);
  log(tr("Tessera ready. Open an ONNX model or a .tsession with Ctrl+O or drop one on the window."));
}

MainWindow::~MainWindow() = default;

void MainWindow::connectControllers() {
  connect(sessionController_, &SessionController::candidatesListed, candidates_, &CandidatesPanel::setCandidates);
  connect(sessionController_, &SessionController::opened, this, &MainWindow::onSessionOpened);
  connect(sessionController_, &SessionController::openFailed, this, [this](const QString&, const QString& message) {
    loading_ = false;
    reportError(tr("Cannot open session"), message);
    emit modelFailed(message);
    runOnLoad_.clear();
  });
  connect(sessionController_, &SessionController::created, this, [this](const QString& path) {
    saveSessionAsAction_->setEnabled(true);
    recent_->remember(path);
    log(tr("new session %1; runs are recorded there").arg(path));
    emit sessionCreated(path);
  });
  connect(sessionController_, &SessionController::savedAs, this, [this](const QString& path) {
    recent_->remember(path);
    log(tr("session saved as %1; runs are recorded there from now on").arg(path));
    emit sessionSavedAs(path);
  });
  connect(sessionController_, &SessionController::failed, this, [this](const QString& title, const QString& message) {
    reportError(title, message);
    emit sessionFailed(message);
  });

  connect(runController_, &RunController::sessionReady, saveSessionAsAction_, [this] { saveSessionAsAction_->setEnabled(true); });
  connect(runController_, &RunController::finished, this, &MainWindow::onRunFinished);
  connect(runController_, &RunController::failed, this, &MainWindow::runFailed);
  connect(runController_, &RunController::logged, this, &MainWindow::log);
  connect(runController_, &RunController::errorReported, this, &MainWindow::reportError);

  connect(candidates_, &CandidatesPanel::selectionChanged, candidatesController_, &CandidatesController::onCandidatesSelected);
  connect(candidates_, &CandidatesPanel::showOriginalRequested, candidatesController_, &CandidatesController::showOriginal);
  connect(candidates_, &CandidatesPanel::compareWithOriginalRequested, candidatesController_, &CandidatesController::compareWithOriginal);
  connect(candidatesController_, &CandidatesController::candidateShown, this, [this](qint64 id) {
    replayRunOf(id);
    exportOnnxAction_->setEnabled(true);
    if (tabs_->currentIndex() != CompareTab) tabs_->setCurrentIndex(GraphTab);
  });
  connect(candidatesController_, &CandidatesController::originalShown, this, [this] { tabs_->setCurrentIndex(GraphTab); });
  connect(candidatesController_, &CandidatesController::compareShown, this, [this] { tabs_->setCurrentIndex(CompareTab); });
  connect(candidatesController_, &CandidatesController::costsChanged, this, &MainWindow::updateStatus);
  connect(candidatesController_, &CandidatesController::logged, this, &MainWindow::log);
  connect(candidatesController_, &CandidatesController::statusMessage, statusBar(), &QStatusBar::showMessage);
  // A measured cost model's first measuring on this machine (the default cost model) shows here.
  setMeasuringProgress([bar = QPointer<QStatusBar>(statusBar())](const std::string& line) {
    QMetaObject::invokeMethod(qApp, [bar, text = QString::fromStdString(line)] {
      if (bar) bar->showMessage(text, 5000);
    }, Qt::QueuedConnection);
  });
  connect(candidatesController_, &CandidatesController::failed, this, &MainWindow::reportError);
}

const SearchOutcome* MainWindow::lastOutcome() const { return runController_->lastOutcome(); }
const views::GraphSnapshot& MainWindow::original() const { return candidatesController_->original(); }
SessionDocument* MainWindow::session() const { return sessionController_->document(); }
qint64 MainWindow::shownCandidate() const { return candidatesController_->shownCandidateId(); }
size_t MainWindow::candidateGraphsLoaded() const { return candidatesController_->graphsLoaded(); }

void MainWindow::buildDocks() {
  properties_ = new views::PropertiesPanel(this);
  auto* propertiesDock = new QDockWidget(tr("Properties"), this);
  propertiesDock->setObjectName(QStringLiteral("propertiesDock"));
  propertiesDock->setWidget(properties_);
  addDockWidget(Qt::RightDockWidgetArea, propertiesDock);

  runPanel_ = new RunPanel(this);
  auto* runDock = new QDockWidget(tr("Search"), this);
  runDock->setObjectName(QStringLiteral("runDock"));
  runDock->setWidget(runPanel_);
  addDockWidget(Qt::RightDockWidgetArea, runDock);
  splitDockWidget(runDock, propertiesDock, Qt::Vertical);

  candidates_ = new CandidatesPanel(this);
  auto* candidatesDock = new QDockWidget(tr("Candidates"), this);
  candidatesDock->setObjectName(QStringLiteral("candidatesDock"));
  candidatesDock->setWidget(candidates_);
  addDockWidget(Qt::LeftDockWidgetArea, candidatesDock);

  rulePanel_ = new views::RulePanel({}, this);
  // The rule pack is parsed on a worker, off the window's first frame; the table fills when it is.
  auto* rulePack = new QFutureWatcher<std::vector<views::RuleInfo>>(this);
  connect(rulePack, &QFutureWatcherBase::finished, this, [this, rulePack] {
    rulePack->deleteLater();
    rulePanel_->setRules(rulePack->result());
    rulePanel_->showState(liveRun_->state()); // a run or replay shown meanwhile keeps its statistics
  });
  rulePack->setFuture(views::runInBackground([] { return views::ruleInfos(defaultRules()); }));
  auto* rulesDock = new QDockWidget(tr("Rules"), this);
  rulesDock->setObjectName(QStringLiteral("rulesDock"));
  rulesDock->setWidget(rulePanel_);
  addDockWidget(Qt::LeftDockWidgetArea, rulesDock);
  tabifyDockWidget(candidatesDock, rulesDock);
  candidatesDock->raise();
  connect(liveRun_, &views::LiveRun::stateChanged, rulePanel_, &views::RulePanel::showState);
  connect(rulePanel_, &views::RulePanel::pinRequested, runner_, &SearchRunner::pin);
  connect(rulePanel_, &views::RulePanel::unpinRequested, runner_, &SearchRunner::unpin);
  connect(rulePanel_, &views::RulePanel::vetoRequested, runner_, &SearchRunner::veto);
  connect(rulePanel_, &views::RulePanel::unvetoRequested, runner_, &SearchRunner::unveto);
  connect(rulePanel_, &views::RulePanel::pauseRequested, runner_, &SearchRunner::pause);
  connect(rulePanel_, &views::RulePanel::resumeRequested, runner_, &SearchRunner::resume);
  connect(rulePanel_, &views::RulePanel::stepRequested, runner_, &SearchRunner::step);
  connect(rulePanel_, &views::RulePanel::stopRequested, runner_, &SearchRunner::requestStop);
  // The views' context menus ask the rule panel, so its table shows the request too.
  connect(egraphView_, &views::EGraphView::pinRequested, rulePanel_, &views::RulePanel::requestPin);
  connect(egraphView_, &views::EGraphView::vetoRequested, rulePanel_, &views::RulePanel::requestVeto);
  connect(mctsView_, &views::MctsTreeView::pinRequested, rulePanel_, &views::RulePanel::requestPin);
  connect(mctsView_, &views::MctsTreeView::vetoRequested, rulePanel_, &views::RulePanel::requestVeto);

  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  auto* logDock = new QDockWidget(tr("Log"), this);
  logDock->setObjectName(QStringLiteral("logDock"));
  logDock->setWidget(log_);
  addDockWidget(Qt::BottomDockWidgetArea, logDock);

  replay_ = new ReplayDocks(this, liveRun_);
  tabifyDockWidget(logDock, replay_->timelineDock());
  jobs_ = new JobsPanel(this);
  auto* jobsDock = new QDockWidget(tr("Jobs"), this);
  jobsDock->setObjectName(QStringLiteral("jobsDock"));
  jobsDock->setWidget(jobs_);
  tabifyDockWidget(logDock, jobsDock);
  connect(jobs_, &JobsPanel::opened, this, [this, jobsDock] {
    jobsDock->raise();
    resizeDocks({jobsDock}, {280}, Qt::Vertical); // room for the shards' rows
  });
  tabifyDockWidget(propertiesDock, replay_->provenanceDock());

  // An RL agent's decisions follow the live views' moment, like the provenance panel.
  agentDecision_ = new views::AgentDecisionPanel(this);
  agentDock_ = new QDockWidget(tr("Agent decision"), this);
  agentDock_->setObjectName(QStringLiteral("agentDecisionDock"));
  agentDock_->setWidget(agentDecision_);
  // Beside Candidates and Rules: that column is tall enough for all ten candidates.
  addDockWidget(Qt::LeftDockWidgetArea, agentDock_);
  tabifyDockWidget(candidatesDock, agentDock_);
  candidatesDock->raise(); // until a run has agent decisions to show
  connect(liveRun_, &views::LiveRun::stateChanged, agentDecision_, &views::AgentDecisionPanel::showState);
  connect(liveRun_, &views::LiveRun::reset, agentDecision_, &views::AgentDecisionPanel::clear);
  connect(liveRun_, &views::LiveRun::reset, this, [this] { agentDockRaised_ = false; });
  connect(liveRun_, &views::LiveRun::stateChanged, this, [this](const ReplayState& state) {
    if (agentDockRaised_ || state.agentDecisions.empty()) return;
    agentDockRaised_ = true; // once: the user may switch to another dock while the run goes on
    agentDock_->raise();
  });
  connect(agentDecision_, &views::AgentDecisionPanel::opsHighlighted, this, &MainWindow::markAgentOps);
  // A replayed run can arrive before its model is laid out: mark its ops once they are drawn.
  connect(graphView_->graphScene(), &views::GraphScene::layoutFinished, this, [this] {
    if (!agentOps_.empty() && candidatesController_ && !candidatesController_->hasShownCandidate())
      graphView_->graphScene()->setSearchMatches(agentOps_);
  });
  propertiesDock->raise();
  logDock->raise();
  connect(replay_, &ReplayDocks::storedRunShown, this, [this](qint64 runId, const QString& error) {
    if (!error.isEmpty()) {
      log(tr("cannot replay run %1: %2").arg(runId).arg(error));
      return;
    }
    log(tr("replaying run %1 (%2 events, folded in %3 s): drag the timeline to any moment")
            .arg(runId)
            .arg(liveRun_->replay().size())
            .arg(liveRun_->lastFoldSeconds(), 0, 'f', 3));
    egraphView_->fitToView();
    mctsView_->fitToView();
  });
  connect(egraphView_, &views::EGraphView::nodeSelected, replay_->provenance(), &views::ProvenancePanel::explainENode);
  // A committed node of the tree explains its step: the statistics that made the search choose it.
  connect(mctsView_, &views::MctsTreeView::nodeSelected, this, [this](uint32_t id) {
    const MirrorMctsNode* node = liveRun_->state().tree.node(id);
    if (node && node->committed()) replay_->provenance()->explainStep(node->committedStep);
  });

  guide_ = new QTextBrowser(this);
  guide_->setOpenExternalLinks(false);
  guideDock_ = new QDockWidget(tr("Guide: the phase-ordering problem"), this);
  guideDock_->setObjectName(QStringLiteral("guideDock"));
  guideDock_->setWidget(guide_);
  addDockWidget(Qt::LeftDockWidgetArea, guideDock_);
  tabifyDockWidget(rulesDock, guideDock_);
  guideDock_->hide(); // shown with the teaching sample (Help ▸ Teaching Sample)
  // Laid out the first time it is shown, which most sessions never do.
  connect(guideDock_, &QDockWidget::visibilityChanged, guide_, [this](bool visible) {
    if (visible && guide_->document()->isEmpty()) guide_->setHtml(views::teachingGuideHtml());
  });

  resizeDocks({runDock, propertiesDock}, {330, 330}, Qt::Horizontal);
  resizeDocks({runDock, propertiesDock}, {330, 420}, Qt::Vertical);
  resizeDocks({logDock}, {130}, Qt::Vertical);
  resizeDocks({candidatesDock}, {290}, Qt::Horizontal);
  candidatesDock->raise(); // the agent's dock comes forward when a run has decisions
}

void MainWindow::buildActions() {
  auto action = [this](const QString& text, const QKeySequence& key, auto slot) {
    auto* a = new QAction(text, this);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    addAction(a);
    return a;
  };
  openAction_ = action(tr("&Open Model…"), QKeySequence::Open, [this] { openDialog(); });
  exportOnnxAction_ = action(tr("&Export Candidate as ONNX…"), QKeySequence(Qt::CTRL | Qt::Key_E), [this] { exportCandidateDialog(); });
  newSessionAction_ = action(tr("&New Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), [this] { newSessionDialog(); });
  saveSessionAsAction_ = action(tr("Save Session &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), [this] { saveSessionAsDialog(); });
  saveSessionAsAction_->setEnabled(false);
  exportOnnxAction_->setEnabled(false);
  exportPngAction_ = action(tr("Export View as &PNG…"), {}, [this] { exportView(QStringLiteral("png")); });
  exportSvgAction_ = action(tr("Export View as &SVG…"), {}, [this] { exportView(QStringLiteral("svg")); });
  quitAction_ = action(tr("&Quit"), QKeySequence::Quit, [this] { close(); });

  viewActions_ = new GraphViewActions({graphView_, compare_->beforeView(), compare_->afterView()}, [this] { return activeGraphView(); }, this);

  // The Run actions are the run controller's; the window takes their shortcuts.
  addActions({runController_->startAction(), runController_->pauseAction(), runController_->stepAction(), runController_->stopAction()});

  theme_ = new ThemeController(this);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  // Open's icon is only seen in this menu (the toolbar shows text): it is looked up and its files
  // read when the menu first opens, not in the window's first frame.
  connect(file, &QMenu::aboutToShow, this, [this] {
    if (openAction_->icon().isNull()) openAction_->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  });
  recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), options_.persistSettings, this);
  connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) { openPath(path); });
  file->addSeparator();
  file->addAction(newSessionAction_);
  file->addAction(saveSessionAsAction_);
  file->addSeparator();
  file->addAction(tr("Load &Rules…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Rules"), QString(), tr("Rule files (*.rules);;All files (*)"));
    if (!path.isEmpty()) loadRules(path);
  });
  file->addAction(tr("Use &Built-in Rules"), this, [this] { loadRules({}); });
  file->addSeparator();
  file->addAction(exportOnnxAction_);
  file->addAction(exportPngAction_);
  file->addAction(exportSvgAction_);
  file->addSeparator();
  file->addAction(tr("Add &Training Reports…"), this, [this] {
    tabs_->setCurrentIndex(TrainingTab);
    training_->panel()->chooseReports();
  });
  file->addAction(tr("Open T&uning Database…"), this, [this] {
    tabs_->setCurrentIndex(TuningTab);
    tuning_->chooseDatabase();
  });
  file->addSeparator();
  file->addAction(quitAction_);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(viewActions_->findAction());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addActions(viewActions_->navigationActions());
  view->addSeparator();
  view->addActions(viewActions_->toggleActions());
  view->addSeparator();
  QMenu* theme = view->addMenu(tr("&Theme"));
  theme->addActions(theme_->actions()->actions());
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({runController_->startAction(), runController_->pauseAction(), runController_->stepAction(), runController_->stopAction()});

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* guide = help->addAction(tr("&User Guide"), this, [this] { UserGuide::showPage(this, UserGuide::contentsPage()); });
  guide->setObjectName(QStringLiteral("userGuideAction"));
  guide->setShortcut(QKeySequence::HelpContents);
  QAction* thisView = help->addAction(tr("This &View"), this, [this] { UserGuide::showPage(this, UserGuide::pageForView(currentViewName())); });
  thisView->setObjectName(QStringLiteral("thisViewAction"));
  thisView->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1));
  help->addSeparator();
  help->addAction(tr("&Teaching Sample: the Phase-Ordering Problem"), this, [this] { openTeachingSample(); });
  help->addAction(tr("&About Tessera"), this, [this] {
    QMessageBox::about(this, tr("About Tessera"),
                       tr("<b>Tessera</b> %1<br>Tensor-graph superoptimisation explorer: ONNX models rewritten by "
                          "equality saturation, priced by a cost model, compared side by side.")
                           .arg(QCoreApplication::applicationVersion()));
  });

  QToolBar* toolbar = addToolBar(tr("Main"));
  toolbar->setObjectName(QStringLiteral("mainToolbar"));
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  toolbar->setMovable(false);
  toolbar->addAction(openAction_);
  toolbar->addSeparator();
  toolbar->addAction(viewActions_->fitAction());
  toolbar->addActions(viewActions_->toggleActions().mid(0, 3)); // weights, shapes, heat map
  toolbar->addSeparator();
  toolbar->addAction(viewActions_->findAction());
  toolbar->addSeparator();
  toolbar->addActions({runController_->startAction(), runController_->pauseAction(), runController_->stepAction(), runController_->stopAction()});
  // Short labels on the toolbar (a text-only tool button shows the icon text); menus keep the full ones.
  openAction_->setIconText(tr("Open"));
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
  QString theme = settings.value(QStringLiteral("view/theme"), QStringLiteral("system")).toString();
  if (theme != QLatin1String("system")) theme_->setTheme(theme);
  viewActions_->restoreSettings(settings);
  runPanel_->restoreSettings(settings);
}

void MainWindow::saveSettings() {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), saveState());
  settings.setValue(QStringLiteral("view/theme"), theme_->theme());
  viewActions_->saveSettings(settings);
  runPanel_->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  runner_->requestStop();
  if (options_.persistSettings) saveSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime->hasUrls() || mime->urls().isEmpty()) return;
  if (isModelFile(mime->urls().front().toLocalFile())) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime->hasUrls() || mime->urls().isEmpty()) return;
  QString path = mime->urls().front().toLocalFile();
  if (!isModelFile(path)) return;
  event->acceptProposedAction();
  openPath(path);
}

void MainWindow::openDialog() {
  QString start = path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath();
  QString path = QFileDialog::getOpenFileName(this, tr("Open Model or Session"), start,
                                              tr("Models and sessions (*.onnx *.tsession);;ONNX models (*.onnx);;Sessions (*.tsession);;All files (*)"));
  if (!path.isEmpty()) openPath(path);
}

void MainWindow::openPath(const QString& path, const onnx_io::ShapeBindings& shapes) {
  if (QFileInfo(path).suffix().compare(QLatin1String("tsession"), Qt::CaseInsensitive) == 0) {
    openSession(path);
    return;
  }
  showTeachingGuideFor(path);
  log(tr("opening %1").arg(path));
  statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
  // A run on the model being replaced ends now (its best is kept): measured pricing of the new one
  // waits for it (MeasuringPause.h).
  runner_->requestStop();
  loadModel(loadModelAsync(path, runPanel_->costSpec(), shapes), ++loadGeneration_);
}

void MainWindow::loadModel(QFuture<LoadedModel> future, int generation) {
  loading_ = true;
  openStartedMs_ = QDateTime::currentMSecsSinceEpoch();
  auto* watcher = new QFutureWatcher<LoadedModel>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != loadGeneration_) return; // a later open replaced this one
    loading_ = false;
    onModelLoaded(watcher->result());
  });
  watcher->setFuture(future);
}
void MainWindow::askForInputSizes(const LoadedModel& loaded) {
  auto* dialog = new ShapeBindingsDialog(loaded.path, loaded.openInputs, loaded.shapes, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  const int generation = loadGeneration_;
  connect(dialog, &QDialog::accepted, this, [this, dialog, path = loaded.path, generation] {
    if (generation != loadGeneration_) return; // another open replaced this one
    if (options_.persistSettings) dialog->remember();
    log(tr("opening %1 with %2").arg(path, QString::fromStdString(onnx_io::describeBindings(dialog->bindings()))));
    loadModel(loadModelAsync(path, runPanel_->costSpec(), dialog->bindings()), ++loadGeneration_);
  });
  connect(dialog, &QDialog::rejected, this, [this, path = loaded.path] {
    openStartedMs_ = 0;
    statusBar()->showMessage(tr("Did not open %1: its input sizes were not given").arg(QFileInfo(path).fileName()), 5000);
    emit modelFailed(tr("%1: opening cancelled, its input sizes were not given").arg(path));
    runOnLoad_.clear();
  });
  dialog->open();
  emit shapesDialogShown(dialog);
}

void MainWindow::onModelLoaded(const LoadedModel& loaded) {
  if (!loaded.openInputs.empty()) {
    askForInputSizes(loaded);
    return;
  }
  if (!loaded.error.isEmpty()) {
    openStartedMs_ = 0;
    reportError(tr("Cannot open model"), loaded.error);
    emit modelFailed(loaded.error);
    runOnLoad_.clear();
    return;
  }
  runController_->setModel(loaded.path);
  // A model opened from ONNX gets its own session at its first run (and a session still opening
  // for an earlier request is dropped).
  if (loaded.sessionModelId == 0) sessionController_->close();
  path_ = loaded.path;
  loadSeconds_ = loaded.seconds;
  candidatesController_->setOriginal(loaded.snapshot);
  exportOnnxAction_->setEnabled(false);
  // An ASCII title: a dash outside Latin-1 cost the UI thread 190 ms in the X11 title conversion.
  setWindowTitle(tr("%1 - Tessera").arg(QFileInfo(path_).fileName()));
  statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path_).fileName()), 5000);
  recent_->remember(path_);
  log(tr("opened %1: %2 ops, %3 ms under %4 (import %5 s)")
          .arg(path_)
          .arg(original().graph->opCount())
          .arg(original().totalMs, 0, 'f', 4)
          .arg(QString::fromStdString(original().costSpec))
          .arg(loaded.seconds, 0, 'f', 2));
  updateStatus();
  emit modelOpened(path_);
  if (!runOnLoad_.isEmpty()) {
    QString strategy = runOnLoad_;
    runOnLoad_.clear();
    startRun(strategy);
  }
}

void MainWindow::discoverBackendsOnceSettled() {
  // The backend plugins load on a worker for a second or more (ONNX Runtime, CUDA), holding the
  // dynamic loader's lock; a thread the UI thread starts meanwhile waits for it (290 ms on a busy
  // machine when the first layout started). So they load once opening the model and the run asked
  // for on the command line have started their threads (layout, session, search).
  const bool settling = loading_ || !runOnLoad_.isEmpty() || sessionController_->isBusy() ||
                        (runController_->isBusy() && !runner_->isRunning());
  if (settling) {
    QTimer::singleShot(250, this, &MainWindow::discoverBackendsOnceSettled);
    return;
  }
  runPanel_->discoverMeasuredBackends();
}

bool MainWindow::startRun(const QString& strategy) { return runController_->startRun(strategy); }

void MainWindow::onRunFinished() {
  exportOnnxAction_->setEnabled(true);
  // From the original's graph view to the compare; a live view the user (or --view) chose stays.
  if (tabs_->currentIndex() == GraphTab) tabs_->setCurrentIndex(CompareTab);
  updateStatus();
  emit runFinished();
}

void MainWindow::openSession(const QString& path) {
  // The newest open wins: a model still loading for an earlier one is dropped when it arrives.
  sessionLoadGeneration_ = ++loadGeneration_;
  loading_ = false;
  statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
  sessionController_->open(path);
}

void MainWindow::onSessionOpened(const QString& path, qint64 modelId, const QString& modelName) {
  runner_->requestStop();
  saveSessionAsAction_->setEnabled(true);
  recent_->remember(path);
  log(tr("opened session %1: %2 runs, %3 candidates").arg(path).arg(sessionController_->runs().size()).arg(candidates_->model()->totalCandidates()));
  emit sessionOpened(path);
  if (sessionLoadGeneration_ != loadGeneration_) return; // a model opened since closes this session
  if (modelId == 0) {
    QString message = tr("%1 holds no model yet; open an ONNX model and use File ▸ New Session to start one").arg(path);
    reportError(tr("Empty session"), message);
    emit modelFailed(message);
    runOnLoad_.clear();
    return;
  }
  showTeachingGuideFor(path);
  replayNewestRun(modelId);
  loadModel(loadSessionModelAsync(path, modelId, modelName.toStdString(), runPanel_->costSpec()), loadGeneration_);
}
void MainWindow::replayRunOf(qint64 candidateId) {
  if (sessionController_->path().isEmpty() || runner_->isRunning()) return; // a running search owns the live views
  const int row = candidates_->model()->rowOf(candidateId);
  if (row < 0) return;
  const int64_t runId = candidates_->model()->candidateAt(row).runId;
  if (runId != replay_->shownRunId()) replay_->showStoredRun(sessionController_->path(), runId);
}
void MainWindow::replayNewestRun(int64_t modelId) {
  if (sessionController_->path().isEmpty() || runner_->isRunning()) return;
  if (const int64_t newest = sessionController_->newestRunOf(modelId)) replay_->showStoredRun(sessionController_->path(), newest);
}
void MainWindow::showTeachingGuideFor(const QString& path) {
  if (!isTeachingSample(path)) return;
  guideDock_->show();
  guideDock_->raise();
  replay_->timelineDock()->raise(); // the guide asks for the timeline
}

QString MainWindow::teachingSessionPath() { return bundledTeachingSession(); }

void MainWindow::openTeachingSample() {
  QString error;
  const QString copy = teachingSessionCopy(options_.sessionDirectory, &error);
  if (copy.isEmpty()) {
    reportError(tr("Teaching sample"), error);
    return;
  }
  openPath(copy);
}

bool MainWindow::newSession(const QString& path) {
  if (path.isEmpty()) return false;
  sessionController_->create(path);
  return true;
}
bool MainWindow::saveSessionAs(const QString& path) {
  if (sessionController_->path().isEmpty() || path.isEmpty()) return false;
  sessionController_->saveAs(path);
  return true;
}
void MainWindow::newSessionDialog() {
  QString start = path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath() + QLatin1Char('/') + QFileInfo(path_).completeBaseName() + QStringLiteral(".tsession");
  QString path = QFileDialog::getSaveFileName(this, tr("New Session"), start, tr("Sessions (*.tsession)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".tsession");
  if (QFileInfo::exists(path)) {
    openPath(path); // the dialog confirmed the overwrite, but a session is never overwritten: open it
    return;
  }
  newSession(path);
}

void MainWindow::saveSessionAsDialog() {
  if (sessionController_->path().isEmpty()) return;
  QString path = QFileDialog::getSaveFileName(this, tr("Save Session As"), sessionController_->path(), tr("Sessions (*.tsession)"),
                                              nullptr, QFileDialog::DontConfirmOverwrite);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".tsession");
  saveSessionAs(path);
}

void MainWindow::showProperties(const views::GraphSnapshot& snapshot, qint64 node) {
  properties_->showNode(snapshot, node >= 0 ? std::optional<NodeId>(static_cast<NodeId>(node)) : std::nullopt);
}

bool MainWindow::loadRules(const QString& path) {
  if (runner_->isRunning()) {
    log(tr("the rules change between runs: stop the run first"));
    return false;
  }
  statusBar()->showMessage(path.isEmpty() ? tr("Loading the built-in rules…") : tr("Checking the rules of %1…").arg(path));
  struct Loaded {
    std::vector<views::RuleInfo> rules;
    QString source, error;
    QStringList notes; // rules left out, each with why
  };
  auto* watcher = new QFutureWatcher<Loaded>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
    watcher->deleteLater();
    const Loaded loaded = watcher->result();
    statusBar()->clearMessage();
    if (!loaded.error.isEmpty()) {
      reportError(tr("Cannot load rules"), loaded.error);
      emit rulesFailed(loaded.error);
      return;
    }
    for (const QString& note : loaded.notes) log(note);
    runner_->setRuleFile(path.toStdString());
    rulePanel_->setRules(loaded.rules);
    log(tr("rules: %1 from %2 (pins and vetoes cleared)").arg(loaded.rules.size()).arg(loaded.source));
    emit rulesLoaded(loaded.source, static_cast<int>(loaded.rules.size()));
  });
  watcher->setFuture(views::runInBackground([file = path.toStdString()] {
    Loaded loaded;
    try {
      std::vector<std::string> notes;
      const ActiveRules active = loadActiveRules({file, {}, {}}, [&](const std::string& line) { notes.push_back(line); });
      // The dock lists the rules a run uses: those that passed the check.
      std::set<QString> used;
      for (const Rule* rule : active.list) used.insert(QString::fromStdString(rule->name()));
      for (views::RuleInfo& info : views::ruleInfos(active.set))
        if (used.count(info.name)) loaded.rules.push_back(std::move(info));
      loaded.source = QString::fromStdString(active.source);
      for (const std::string& note : notes) loaded.notes << QString::fromStdString(note);
    } catch (const std::exception& error) {
      loaded.error = QString::fromUtf8(error.what());
    }
    return loaded;
  }));
  return true;
}

CandidateExport MainWindow::candidateExport(const QString& path, const QString& runtime) const {
  CandidateExport request;
  request.original = candidatesController_->original().graph;
  request.candidate = candidatesController_->exportedGraph();
  request.costSpec = candidatesController_->original().costSpec;
  request.modelPath = path_.toStdString();
  request.path = path.toStdString();
  request.runtime = runtime.toStdString();
  return request;
}

QString MainWindow::exportCandidate(const QString& path, const QString& runtime) {
  try {
    log(QString::fromStdString(exportCandidateFor(candidateExport(path, runtime))));
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
  statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
  return {};
}

void MainWindow::exportCandidateDialog() {
  if (!candidatesController_->exportedGraph()) return;
  QFileInfo info(path_);
  QString name = candidatesController_->hasShownCandidate() ? QStringLiteral("_candidate%1").arg(candidatesController_->shownCandidateId()) : QStringLiteral("_optimized");
  QString suggestion = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + name + QStringLiteral(".onnx");
  QString path = QFileDialog::getSaveFileName(this, tr("Export Candidate as ONNX"), suggestion, tr("ONNX models (*.onnx)"));
  if (path.isEmpty()) return;
  // A file is for a runtime: the candidate is timed there and the original written unless it is faster.
  QStringList runtimes;
  for (const std::string& runtime : exportRuntimes()) runtimes << QString::fromStdString(runtime);
  const QString notTimed = tr("none: write the candidate without timing it");
  runtimes << notTimed;
  bool chosen = false;
  const QString runtime = QInputDialog::getItem(this, tr("Export for which runtime?"),
                                                tr("The runtime that will run %1.\nThe candidate is timed against the original there, "
                                                   "and the original is written unless the candidate is faster.")
                                                    .arg(QFileInfo(path).fileName()),
                                                runtimes, 0, false, &chosen);
  if (!chosen) return;
  const CandidateExport request = candidateExport(path, runtime == notTimed ? QString() : runtime);
  statusBar()->showMessage(request.runtime.empty() ? tr("Writing %1…").arg(path)
                                                   : tr("Timing the candidate against the original on %1, then writing %2…")
                                                         .arg(runtime, path));
  struct Written {
    QString line, error;
  };
  auto* watcher = new QFutureWatcher<Written>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
    watcher->deleteLater();
    const Written written = watcher->result();
    if (!written.error.isEmpty()) {
      reportError(tr("Export failed"), written.error);
      return;
    }
    log(written.line);
    statusBar()->showMessage(written.line, 10000);
  });
  watcher->setFuture(views::runInBackground([request] {
    Written written;
    try {
      written.line = QString::fromStdString(exportCandidateFor(request));
    } catch (const std::exception& error) {
      written.error = QString::fromUtf8(error.what());
    }
    return written;
  }));
}

void MainWindow::exportView(const QString& suffix) {
  QString base = path_.isEmpty() ? QStringLiteral("tessera") : QFileInfo(path_).completeBaseName();
  QString name = tabs_->tabText(tabs_->currentIndex()).toLower().remove(QLatin1Char('&'));
  QString suggestion = QStringLiteral("%1_%2.%3").arg(base, name, suffix);
  QString filter = suffix == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
  QString path = QFileDialog::getSaveFileName(this, tr("Export View"), suggestion, filter);
  if (path.isEmpty()) return;
  QString error = tabs_->currentIndex() == GraphTab ? views::exportScene(graphView_->graphScene(), path)
                                                    : views::exportWidget(tabs_->currentWidget(), path);
  if (!error.isEmpty()) {
    reportError(tr("Export failed"), error);
    return;
  }
  log(tr("wrote %1").arg(path));
}

void MainWindow::reportError(const QString& title, const QString& message) {
  lastError_ = message;
  log(tr("error: %1").arg(message));
  statusBar()->showMessage(message, 15000);
  if (options_.interactiveErrors) QMessageBox::critical(this, title, message);
}

void MainWindow::log(const QString& line) {
  log_->appendPlainText(QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), line));
}

void MainWindow::updateStatus() {
  const views::GraphSnapshot& model = original();
  if (!model.graph) {
    modelStatus_->setText(tr("no model"));
    return;
  }
  modelStatus_->setText(tr("%1 · %2 ops · %3 ms (%4)")
                            .arg(QString::fromStdString(model.title))
                            .arg(model.graph->opCount())
                            .arg(model.totalMs, 0, 'f', 4)
                            .arg(QString::fromStdString(model.costSpec)));
}

views::GraphView* MainWindow::activeGraphView() const {
  switch (tabs_->currentIndex()) {
  case GraphTab: return graphView_;
  case CompareTab: {
    QWidget* focus = QApplication::focusWidget();
    if (focus && compare_->afterView()->isAncestorOf(focus)) return compare_->afterView();
    return compare_->beforeView();
  }
  default: return nullptr;
  }
}

void MainWindow::markAgentOps(const std::vector<NodeId>& originalOps, bool focus) {
  // The ops are the model's: on a candidate shown in the graph view they would mark other ops.
  if (candidatesController_->hasShownCandidate()) return;
  if (originalOps.empty() && agentOps_.empty()) return; // leave a person's search marks alone
  graphView_->graphScene()->setSearchMatches(originalOps);
  agentOps_ = originalOps;
  if (!focus || originalOps.empty()) return;
  tabs_->setCurrentIndex(GraphTab);
  graphView_->focusNodes(originalOps);
}

QString MainWindow::shippedTrainingReportPath() {
  const QString path = QStringLiteral(TESSERA_AGENTS_DIR "/xrlflow-training.json");
  return QFileInfo::exists(path) ? path : QString();
}

void MainWindow::showTrainingReports(const QStringList& paths) { training_->showReports(paths); }

views::TrainingCurvesPanel* MainWindow::trainingPanel() const { return training_->isBuilt() ? training_->panel() : nullptr; }

void MainWindow::showView(const QString& name) {
  if (name == QLatin1String("training")) tabs_->setCurrentIndex(TrainingTab);
  else if (name == QLatin1String("dream")) tabs_->setCurrentIndex(DreamTab);
  else if (name == QLatin1String("tuning")) tabs_->setCurrentIndex(TuningTab);
  else if (name == QLatin1String("sip")) tabs_->setCurrentIndex(SipTab);
  else if (name == QLatin1String("compare")) tabs_->setCurrentIndex(CompareTab);
  else if (name == QLatin1String("egraph")) tabs_->setCurrentIndex(EGraphTab);
  else if (name == QLatin1String("mcts")) tabs_->setCurrentIndex(MctsTab);
  else tabs_->setCurrentIndex(GraphTab);
}

QString MainWindow::currentViewName() const {
  switch (tabs_->currentIndex()) {
  case CompareTab: return QStringLiteral("compare");
  case EGraphTab: return QStringLiteral("egraph");
  case MctsTab: return QStringLiteral("mcts");
  case TrainingTab: return QStringLiteral("training");
  case DreamTab: return QStringLiteral("dream");
  case TuningTab: return QStringLiteral("tuning");
  case SipTab: return QStringLiteral("sip");
  default: return QStringLiteral("graph");
  }
}

QMap<QString, double> MainWindow::updatesPerSecond() const {
  // Every live view is fed by the runner's batches; "events" is that rate itself.
  QMap<QString, double> rates;
  rates[QStringLiteral("events")] = runner_->batchesPerSecond();
  rates[QStringLiteral("egraph")] = runner_->batchesPerSecond();
  rates[QStringLiteral("mcts")] = runner_->batchesPerSecond();
  return rates;
}

bool MainWindow::isBusy() const {
  return loading_ || runController_->isBusy() || sessionController_->isBusy() || candidatesController_->isBusy() || training_->isLoading() || dream_->isBusy() || tuning_->isBusy() ||
         graphView_->graphScene()->isLayingOut() ||
         compare_->beforeView()->graphScene()->isLayingOut() || compare_->afterView()->graphScene()->isLayingOut();
}

QMap<QString, int> MainWindow::itemsShown() const {
  QMap<QString, int> items;
  items[QStringLiteral("graph")] = graphView_->graphScene()->visibleNodeCount();
  items[QStringLiteral("compare")] = compare_->itemsShown();
  items[QStringLiteral("candidates")] = candidates_->model()->rowCount();
  items[QStringLiteral("egraph")] = static_cast<int>(egraphView_->shownChips());
  items[QStringLiteral("mcts")] = static_cast<int>(mctsView_->shownNodes());
  items[QStringLiteral("rules")] = rulePanel_->model()->rowCount();
  items[QStringLiteral("agent_decision")] = agentDecision_->model()->rowCount();
  items[QStringLiteral("training")] = training_->curvesShown();
  items[QStringLiteral("dream")] = dream_->stepsShown();
  items[QStringLiteral("tuning")] = tuning_->recordsShown();
  items[QStringLiteral("sip")] = sip_->listing()->rowCount();
  return items;
}

} // namespace tessera::gui
