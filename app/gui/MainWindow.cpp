#include "MainWindow.h"

#include "CandidatesController.h"
#include "CandidatesPanel.h"
#include "CostModels.h"
#include "ModelLoader.h"
#include "RecentFiles.h"
#include "ReplayDocks.h"
#include "RunPanel.h"
#include "SearchRunner.h"
#include "SessionController.h"
#include "ThemeController.h"

#include "CandidateTableModel.h"
#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "PropertiesPanel.h"
#include "ViewExport.h"
#include "live/EGraphView.h"
#include "live/LiveRun.h"
#include "live/MctsTreeView.h"
#include "live/ProvenancePanel.h"
#include "live/RulePanel.h"
#include "live/TeachingGuide.h"
#include "live/TimelineWidget.h"

#include "rewrite/DefaultRules.h"

#include "support/Error.h"

#include <array>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QTextBrowser>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTime>
#include <QToolBar>

namespace tessera::gui {

namespace {

enum Tab { GraphTab, CompareTab, EGraphTab, MctsTab };

} // namespace

namespace {

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
  setCentralWidget(tabs_);

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
  buildDocks();
  buildActions();
  buildMenus();
  sessionController_ = new SessionController(this);
  candidatesController_ = new CandidatesController(sessionController_, candidates_, runPanel_, graphView_, compare_, properties_, this);
  connectControllers();

  modelStatus_ = new QLabel(this);
  bestStatus_ = new QLabel(this);
  stepStatus_ = new QLabel(this);
  statusBar()->addPermanentWidget(modelStatus_);
  statusBar()->addPermanentWidget(stepStatus_);
  statusBar()->addPermanentWidget(bestStatus_);

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

  connect(runPanel_, &RunPanel::startRequested, this, [this] { startRun(QString::fromStdString(runPanel_->settings().strategy)); });
  connect(runPanel_, &RunPanel::stopRequested, runner_, &SearchRunner::requestStop);
  connect(runPanel_, &RunPanel::pauseRequested, runner_, &SearchRunner::pause);
  connect(runPanel_, &RunPanel::resumeRequested, runner_, &SearchRunner::resume);
  connect(runPanel_, &RunPanel::stepRequested, runner_, &SearchRunner::step);
  connect(runPanel_, &RunPanel::costModelChanged, this, [this](const QString& spec) { candidatesController_->onCostModelChanged(spec); });
  connect(runPanel_, &RunPanel::stepIntervalChanged, runner_, &SearchRunner::setStepInterval);
  connect(runPanel_, &RunPanel::stepIntervalChanged, replay_->timeline(), &views::TimelineWidget::setStepInterval);
  connect(runner_, &SearchRunner::runningChanged, this, [this](bool running) {
    runPanel_->setRunning(running);
    startAction_->setEnabled(!running && original().graph);
    stopAction_->setEnabled(running);
    pauseAction_->setEnabled(running);
    stepAction_->setEnabled(running && runner_->isPaused());
    if (running) stepStatus_->setText(tr("running"));
  });
  connect(runner_, &SearchRunner::pausedChanged, this, [this](bool paused) {
    runPanel_->setPaused(paused);
    pauseAction_->setText(paused ? tr("&Resume") : tr("&Pause"));
    pauseAction_->setIconText(paused ? tr("Resume") : tr("Pause"));
    stepAction_->setEnabled(paused && runner_->isRunning());
    if (runner_->isRunning()) stepStatus_->setText(paused ? tr("paused") : tr("running"));
    log(paused ? tr("search paused") : tr("search resumed"));
  });
  connect(runner_, &SearchRunner::stepCommitted, this, [this](int step, qulonglong enodes, int percent) {
    runPanel_->setProgress(percent, QString());
    stepStatus_->setText(tr("step %1 · %2 e-nodes%3").arg(step + 1).arg(enodes).arg(runner_->isPaused() ? tr(" · paused") : QString()));
  });
  connect(runner_, &SearchRunner::runRecorded, this, [this](qint64 modelId, qint64 runId) {
    sessionController_->setModelId(modelId);
    log(tr("recording run %1 in %2").arg(runId).arg(sessionController_->path()));
  });
  connect(runner_, &SearchRunner::progress, this, [this](const QString& line, int percent) {
    runPanel_->setProgress(percent, line);
    statusBar()->showMessage(line, 5000);
    log(line);
  });
  connect(runner_, &SearchRunner::bestCostChanged, this, [this](double ms) {
    double original = this->original().totalMs;
    double speedup = original > 0 ? (original - ms) / original * 100 : 0;
    bestStatus_->setText(tr("best %1 ms (%2 %)").arg(ms, 0, 'f', 4).arg(speedup, 0, 'f', 2));
  });
  connect(runner_, &SearchRunner::finished, this, &MainWindow::onRunFinished);
  connect(runner_, &SearchRunner::failed, this, [this](const QString& message) {
    runPanel_->setOutcome(tr("<b>Run failed:</b> %1").arg(message.toHtmlEscaped()));
    stepStatus_->setText(tr("failed"));
    sessionController_->refresh(); // the failed run is in the session too
    reportError(tr("Search failed"), message);
    emit runFailed(message);
  });

  connect(candidates_, &CandidatesPanel::exportRequested, this, [this] { exportCandidateDialog(); });

  if (options_.persistSettings) restoreSettings();
  updateStatus();
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
  connect(sessionController_, &SessionController::defaultSessionReady, this, &MainWindow::onDefaultSessionReady);

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
  connect(candidatesController_, &CandidatesController::failed, this, &MainWindow::reportError);
}

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

  rulePanel_ = new views::RulePanel(views::ruleInfos(defaultRules()), this);
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
  tabifyDockWidget(propertiesDock, replay_->provenanceDock());
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
  guide_->setHtml(views::teachingGuideHtml());
  guide_->setOpenExternalLinks(false);
  guideDock_ = new QDockWidget(tr("Guide: the phase-ordering problem"), this);
  guideDock_->setObjectName(QStringLiteral("guideDock"));
  guideDock_->setWidget(guide_);
  addDockWidget(Qt::LeftDockWidgetArea, guideDock_);
  tabifyDockWidget(rulesDock, guideDock_);
  guideDock_->hide(); // shown with the teaching sample (Help ▸ Teaching Sample)

  resizeDocks({runDock, propertiesDock}, {330, 330}, Qt::Horizontal);
  resizeDocks({runDock, propertiesDock}, {330, 420}, Qt::Vertical);
  resizeDocks({logDock}, {130}, Qt::Vertical);
  resizeDocks({candidatesDock}, {290}, Qt::Horizontal);
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
  openAction_->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  exportOnnxAction_ = action(tr("&Export Candidate as ONNX…"), QKeySequence(Qt::CTRL | Qt::Key_E), [this] { exportCandidateDialog(); });
  newSessionAction_ = action(tr("&New Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), [this] { newSessionDialog(); });
  saveSessionAsAction_ = action(tr("Save Session &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), [this] { saveSessionAsDialog(); });
  saveSessionAsAction_->setEnabled(false);
  exportOnnxAction_->setEnabled(false);
  exportPngAction_ = action(tr("Export View as &PNG…"), {}, [this] { exportView(QStringLiteral("png")); });
  exportSvgAction_ = action(tr("Export View as &SVG…"), {}, [this] { exportView(QStringLiteral("svg")); });
  quitAction_ = action(tr("&Quit"), QKeySequence::Quit, [this] { close(); });

  findAction_ = action(tr("&Find Node…"), QKeySequence::Find, [this] {
    if (views::GraphView* view = activeGraphView()) view->showSearch();
  });
  fitAction_ = action(tr("&Fit to Window"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] {
    if (views::GraphView* view = activeGraphView()) view->fitToView();
  });
  actualSizeAction_ = action(tr("&Actual Size"), QKeySequence(Qt::CTRL | Qt::Key_1), [this] {
    if (views::GraphView* view = activeGraphView()) view->actualSize();
  });
  zoomInAction_ = action(tr("Zoom &In"), QKeySequence::ZoomIn, [this] {
    if (views::GraphView* view = activeGraphView()) view->zoomBy(1.25);
  });
  zoomOutAction_ = action(tr("Zoom &Out"), QKeySequence::ZoomOut, [this] {
    if (views::GraphView* view = activeGraphView()) view->zoomBy(0.8);
  });
  auto views = [this] { return std::array<views::GraphView*, 3>{graphView_, compare_->beforeView(), compare_->afterView()}; };
  weightsAction_ = action(tr("Show &Weights"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), [this, views](bool on) {
    for (views::GraphView* view : views()) view->graphScene()->setShowWeights(on);
  });
  shapesAction_ = action(tr("Show Tensor &Shapes"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), [this, views](bool on) {
    for (views::GraphView* view : views()) view->graphScene()->setShowShapes(on);
  });
  heatAction_ = action(tr("&Heat Map by Cost"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H), [this, views](bool on) {
    for (views::GraphView* view : views()) view->graphScene()->setHeatMap(on);
  });
  miniMapAction_ = action(tr("&Minimap"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), [this, views](bool on) {
    for (views::GraphView* view : views()) view->setMiniMapVisible(on);
  });
  for (QAction* toggle : {weightsAction_, shapesAction_, heatAction_, miniMapAction_}) toggle->setCheckable(true);
  miniMapAction_->setChecked(true);

  startAction_ = action(tr("&Start"), QKeySequence(Qt::Key_F5), [this] { startRun(QString::fromStdString(runPanel_->settings().strategy)); });
  stopAction_ = action(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), [this] { runner_->requestStop(); });
  pauseAction_ = action(tr("&Pause"), QKeySequence(Qt::Key_F6), [this] {
    if (runner_->isPaused()) runner_->resume();
    else runner_->pause();
  });
  stepAction_ = action(tr("Single St&ep"), QKeySequence(Qt::Key_F7), [this] { runner_->step(); });
  startAction_->setEnabled(false);
  stopAction_->setEnabled(false);
  pauseAction_->setEnabled(false);
  stepAction_->setEnabled(false);

  theme_ = new ThemeController(this);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), options_.persistSettings, this);
  connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openPath);
  file->addSeparator();
  file->addAction(newSessionAction_);
  file->addAction(saveSessionAsAction_);
  file->addSeparator();
  file->addAction(exportOnnxAction_);
  file->addAction(exportPngAction_);
  file->addAction(exportSvgAction_);
  file->addSeparator();
  file->addAction(quitAction_);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(findAction_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(fitAction_);
  view->addAction(actualSizeAction_);
  view->addAction(zoomInAction_);
  view->addAction(zoomOutAction_);
  view->addSeparator();
  view->addAction(weightsAction_);
  view->addAction(shapesAction_);
  view->addAction(heatAction_);
  view->addAction(miniMapAction_);
  view->addSeparator();
  QMenu* theme = view->addMenu(tr("&Theme"));
  theme->addActions(theme_->actions()->actions());
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(startAction_);
  run->addAction(pauseAction_);
  run->addAction(stepAction_);
  run->addAction(stopAction_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
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
  toolbar->addAction(fitAction_);
  toolbar->addAction(weightsAction_);
  toolbar->addAction(shapesAction_);
  toolbar->addAction(heatAction_);
  toolbar->addSeparator();
  toolbar->addAction(findAction_);
  toolbar->addSeparator();
  toolbar->addAction(startAction_);
  toolbar->addAction(pauseAction_);
  toolbar->addAction(stepAction_);
  toolbar->addAction(stopAction_);
  // Short labels on the toolbar (a text-only tool button shows the icon text); menus keep the full ones.
  openAction_->setIconText(tr("Open"));
  fitAction_->setIconText(tr("Fit"));
  weightsAction_->setIconText(tr("Weights"));
  shapesAction_->setIconText(tr("Shapes"));
  heatAction_->setIconText(tr("Heat map"));
  findAction_->setIconText(tr("Find"));
  startAction_->setIconText(tr("Run"));
  stopAction_->setIconText(tr("Stop"));
  pauseAction_->setIconText(tr("Pause"));
  stepAction_->setIconText(tr("Step"));
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
  QString theme = settings.value(QStringLiteral("view/theme"), QStringLiteral("system")).toString();
  if (theme != QLatin1String("system")) theme_->setTheme(theme);
  miniMapAction_->setChecked(settings.value(QStringLiteral("view/minimap"), true).toBool());
  for (views::GraphView* view : {graphView_, compare_->beforeView(), compare_->afterView()}) view->setMiniMapVisible(miniMapAction_->isChecked());
  runPanel_->restoreSettings(settings);
}

void MainWindow::saveSettings() {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), saveState());
  settings.setValue(QStringLiteral("view/theme"), theme_->theme());
  settings.setValue(QStringLiteral("view/minimap"), miniMapAction_->isChecked());
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

void MainWindow::openPath(const QString& path) {
  if (QFileInfo(path).suffix().compare(QLatin1String("tsession"), Qt::CaseInsensitive) == 0) {
    openSession(path);
    return;
  }
  showTeachingGuideFor(path);
  log(tr("opening %1").arg(path));
  statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
  loadModel(loadModelAsync(path, runPanel_->costSpec()), ++loadGeneration_);
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
void MainWindow::onModelLoaded(const LoadedModel& loaded) {
  if (!loaded.error.isEmpty()) {
    openStartedMs_ = 0;
    reportError(tr("Cannot open model"), loaded.error);
    emit modelFailed(loaded.error);
    if (!runOnLoad_.isEmpty()) runOnLoad_.clear();
    return;
  }
  runner_->requestStop(); // a run on the previous model has nothing left to show
  // A model opened from ONNX gets its own session at its first run (and a session still opening
  // for an earlier request is dropped).
  if (loaded.sessionModelId == 0) sessionController_->close();
  path_ = loaded.path;
  loadSeconds_ = loaded.seconds;
  candidatesController_->setOriginal(loaded.snapshot);
  outcome_.reset();
  exportOnnxAction_->setEnabled(false);
  stepStatus_->clear();
  runPanel_->setModelLoaded(true);
  runPanel_->setOutcome({});
  startAction_->setEnabled(!runner_->isRunning());
  bestStatus_->clear();
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

bool MainWindow::startRun(const QString& strategy) {
  if (!original().graph) {
    log(tr("open a model before starting a search"));
    return false;
  }
  if (!isKnownStrategy(strategy.toStdString())) {
    reportError(tr("Search"), tr("unknown strategy '%1' (use greedy, taso, eqsat or mcts)").arg(strategy));
    return false;
  }
  if (runner_->isRunning() || !pendingRun_.isEmpty()) {
    log(tr("a search is already running"));
    return false;
  }
  if (!sessionController_->path().isEmpty()) return launchRun(strategy);
  // The model's session is opened (or created, checked and migrated) on the session worker: that
  // file work stalled the window by a few hundred milliseconds on a busy disk. The run starts when
  // it is ready.
  pendingRun_ = strategy;
  pendingRunModel_ = original().graph;
  sessionController_->openDefault(SessionDocument::defaultPathFor(path_, options_.sessionDirectory), path_, original().graph->opCount());
  return true;
}

void MainWindow::onDefaultSessionReady(const QString& error) {
  const QString strategy = std::exchange(pendingRun_, QString());
  const std::shared_ptr<const Graph> model = std::exchange(pendingRunModel_, nullptr);
  if (strategy.isEmpty() || model != original().graph) return; // another model was opened meanwhile
  // Without a session the run still happens; only its record is lost, and the user is told why.
  if (!error.isEmpty()) reportError(tr("Session"), tr("this run is not recorded: %1").arg(error));
  if (!sessionController_->path().isEmpty()) {
    saveSessionAsAction_->setEnabled(true);
    log(tr("runs on this model are recorded in %1").arg(sessionController_->path()));
  }
  launchRun(strategy);
}
bool MainWindow::launchRun(const QString& strategy) {
  RunSettings settings;
  try {
    settings = runPanel_->settings();
  } catch (const Error& e) {
    reportError(tr("Run"), QString::fromUtf8(e.what()));
    return false;
  }
  settings.strategy = strategy.toStdString();
  runPanel_->selectStrategy(settings.strategy);
  RunDestination recording;
  if (!sessionController_->path().isEmpty()) {
    recording.sessionPath = sessionController_->path().toStdString();
    recording.model = {sessionController_->modelId(), original().title, QFileInfo(path_).absoluteFilePath().toStdString()};
  }
  if (!runner_->start(original().graph, settings, recording)) {
    log(tr("a search is already running"));
    return false;
  }
  replay_->followLiveRun(tr("%1 · live").arg(strategy));
  const QStringList parameters = parameterPairs(settings.search.parameters);
  log(tr("search started: %1, cost %2, node limit %3, %4 iterations, %5 s, extraction %6, seed %7%8")
          .arg(strategy, QString::fromStdString(settings.costSpec))
          .arg(settings.search.nodeLimit)
          .arg(settings.search.iterationLimit)
          .arg(settings.search.timeLimitSeconds)
          .arg(QString::fromStdString(settings.search.extractMethod))
          .arg(settings.search.seed)
          .arg(parameters.isEmpty() ? QString() : QStringLiteral(", ") + parameters.join(QStringLiteral(", "))));
  return true;
}

void MainWindow::onRunFinished(std::shared_ptr<const SearchOutcome> outcome) {
  mctsView_->fitToView(); // the whole tree the run grew, not the corner framed when it was small
  egraphView_->fitToView(); // the e-graph it grew, framed legibly around the last step
  if (!outcome->recordingError.empty())
    reportError(tr("Session"), tr("the run finished but was not fully recorded: %1").arg(QString::fromStdString(outcome->recordingError)));
  sessionController_->refresh();
  if (!original().graph || outcome->original != original().graph) return; // a run on a model no longer open
  outcome_ = outcome;
  const SearchResult& result = outcome->result;
  std::vector<NodeOrigin> origins;
  if (result.bestCandidate >= 0) origins = result.candidates[result.bestCandidate].origins;
  candidatesController_->showBest(outcome->best, result.rulesApplied, std::move(origins)); // priced on the search's worker
  exportOnnxAction_->setEnabled(true);
  QString verified = !result.verificationRun ? tr("not verified")
                     : result.verified       ? tr("verified")
                                             : tr("<span style='color:#d32f2f'>verification FAILED</span>");
  runPanel_->setOutcome(tr("<b>%1 → %2 ms</b> (speedup %3 %)<br>%4 ops → %5 ops · %6 · %7 candidates · stopped: %8 · %9 s")
                            .arg(result.originalCostMs, 0, 'f', 4)
                            .arg(result.bestCostMs, 0, 'f', 4)
                            .arg(result.speedupPct, 0, 'f', 2)
                            .arg(outcome->original->opCount())
                            .arg(outcome->optimized->opCount())
                            .arg(verified)
                            .arg(result.candidates.size())
                            .arg(QString::fromStdString(result.stopReason))
                            .arg(outcome->seconds, 0, 'f', 1));
  runPanel_->setProgress(100, tr("done"));
  stepStatus_->setText(tr("%1 steps · %2").arg(result.steps).arg(QString::fromStdString(result.stopReason)));
  log(tr("search finished: %1 → %2 ms (speedup %3 %), %4 e-nodes, %5 candidates, stopped: %6, %7 s")
          .arg(result.originalCostMs, 0, 'f', 4)
          .arg(result.bestCostMs, 0, 'f', 4)
          .arg(result.speedupPct, 0, 'f', 2)
          .arg(result.enodes)
          .arg(result.candidates.size())
          .arg(QString::fromStdString(result.stopReason))
          .arg(outcome->seconds, 0, 'f', 2));
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
  const bool teaching = QFileInfo(path).completeBaseName() == QFileInfo(views::teachingSampleFileName()).completeBaseName();
  if (!teaching) return;
  guideDock_->show();
  guideDock_->raise();
  replay_->timelineDock()->raise(); // the guide asks for the timeline
}

QString MainWindow::teachingSessionPath() {
  const QString name = QFileInfo(views::teachingSampleFileName()).completeBaseName() + QStringLiteral(".tsession");
  // An installation keeps the samples beside bin/; a build tree finds them in its source tree.
  const QStringList folders = {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tessera/samples/teaching"),
                               QStringLiteral(TESSERA_SAMPLES_DIR "/teaching")};
  for (const QString& folder : folders)
    if (QFileInfo::exists(folder + QLatin1Char('/') + name)) return QFileInfo(folder + QLatin1Char('/') + name).canonicalFilePath();
  return {};
}

void MainWindow::openTeachingSample() {
  const QString bundled = teachingSessionPath();
  if (bundled.isEmpty()) {
    reportError(tr("Teaching sample"), tr("the bundled teaching session (samples/teaching/phase_ordering.tsession) was not found"));
    return;
  }
  // The user's runs go into a copy (the model's default session), never into the bundled file.
  const QString copy = SessionDocument::defaultPathFor(views::teachingSampleFileName(), options_.sessionDirectory);
  if (!QFileInfo::exists(copy)) {
    QDir().mkpath(QFileInfo(copy).absolutePath());
    if (!QFile::copy(bundled, copy)) {
      reportError(tr("Teaching sample"), tr("cannot copy %1 to %2").arg(bundled, copy));
      return;
    }
    QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
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

QString MainWindow::exportCandidate(const QString& path) {
  if (QString error = candidatesController_->exportCandidate(path); !error.isEmpty()) return error;
  log(tr("wrote %1").arg(path));
  statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
  return {};
}
void MainWindow::exportCandidateDialog() {
  if (!candidatesController_->hasShownCandidate() && !candidatesController_->hasBest()) return;
  QFileInfo info(path_);
  QString name = candidatesController_->hasShownCandidate() ? QStringLiteral("_candidate%1").arg(candidatesController_->shownCandidateId()) : QStringLiteral("_optimized");
  QString suggestion = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + name + QStringLiteral(".onnx");
  QString path = QFileDialog::getSaveFileName(this, tr("Export Candidate as ONNX"), suggestion, tr("ONNX models (*.onnx)"));
  if (path.isEmpty()) return;
  QString error = exportCandidate(path);
  if (!error.isEmpty()) reportError(tr("Export failed"), error);
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

void MainWindow::showView(const QString& name) {
  if (name == QLatin1String("compare")) tabs_->setCurrentIndex(CompareTab);
  else if (name == QLatin1String("egraph")) tabs_->setCurrentIndex(EGraphTab);
  else if (name == QLatin1String("mcts")) tabs_->setCurrentIndex(MctsTab);
  else tabs_->setCurrentIndex(GraphTab);
}

QString MainWindow::currentViewName() const {
  switch (tabs_->currentIndex()) {
  case CompareTab: return QStringLiteral("compare");
  case EGraphTab: return QStringLiteral("egraph");
  case MctsTab: return QStringLiteral("mcts");
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
  return loading_ || !pendingRun_.isEmpty() || sessionController_->isBusy() || candidatesController_->isBusy() || runner_->isRunning() ||
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
  return items;
}

} // namespace tessera::gui
