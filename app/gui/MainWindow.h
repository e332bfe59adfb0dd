// The explorer's main window: the graph view in the centre (tabs leave room for the e-graph and
// MCTS views), docks for properties, the run panel and the log; menus, recent files, drag and
// drop, persisted layout, light/dark palettes; opening models and running searches off the UI thread.
#pragma once

#include "GraphSnapshot.h"

#include <QMainWindow>
#include <QMap>
#include <QPalette>

#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QTabWidget;

namespace tessera::views {
class CompareWidget;
class GraphView;
class PropertiesPanel;
} // namespace tessera::views

namespace tessera::gui {

class RunPanel;
class SearchRunner;
struct LoadedModel;
struct SearchOutcome;

struct MainWindowOptions {
  bool persistSettings = true;   // restore and save layout, recent files, theme (off for screenshots and tests)
  bool interactiveErrors = true; // errors open a dialog; otherwise they are logged and signalled only
};

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // .onnx opens on a worker; a .tsession is explained as not available yet.
  void openPath(const QString& path);
  // Starts `strategy` on the open model; false (with a message in the log) when it cannot.
  bool startRun(const QString& strategy);
  // Starts `strategy` as soon as the model being opened is ready.
  void runWhenLoaded(const QString& strategy) { runOnLoad_ = strategy; }
  // graph, egraph, mcts or compare.
  void showView(const QString& name);
  QString currentViewName() const;

  bool isBusy() const; // loading, laying out or running
  QMap<QString, int> itemsShown() const;
  const views::GraphSnapshot& original() const { return original_; }
  const SearchOutcome* lastOutcome() const { return outcome_.get(); }
  QString lastError() const { return lastError_; }
  double lastOpenSeconds() const { return openSeconds_; }

  views::GraphView* graphView() const { return graphView_; }
  views::CompareWidget* compareWidget() const { return compare_; }
  views::PropertiesPanel* propertiesPanel() const { return properties_; }
  RunPanel* runPanel() const { return runPanel_; }
  SearchRunner* searchRunner() const { return runner_; }

signals:
  void modelOpened(const QString& path);
  void modelFailed(const QString& message);
  void runFinished();
  void runFailed(const QString& message);

protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void buildActions();
  void buildMenus();
  void buildDocks();
  void restoreSettings();
  void saveSettings();

  void openDialog();
  void onModelLoaded(const LoadedModel& loaded);
  void onRunFinished(std::shared_ptr<const SearchOutcome> outcome);
  void onCostModelChanged(const QString& spec);
  void showProperties(const views::GraphSnapshot& snapshot, qint64 node);
  void exportOptimized();
  void exportView(const QString& suffix);
  void applyTheme(const QString& theme);
  void rememberRecent(const QString& path);
  void fillRecentMenu();
  void reportError(const QString& title, const QString& message);
  void log(const QString& line);
  void updateStatus();
  views::GraphView* activeGraphView() const;

  MainWindowOptions options_;
  views::GraphSnapshot original_;
  views::GraphSnapshot optimized_;
  std::shared_ptr<const SearchOutcome> outcome_;
  QString path_;
  QString runOnLoad_;
  QString lastError_;
  int loadGeneration_ = 0;
  bool loading_ = false;
  qint64 openStartedMs_ = 0;
  double loadSeconds_ = 0;
  double openSeconds_ = 0;
  QPalette systemPalette_;

  QTabWidget* tabs_ = nullptr;
  views::GraphView* graphView_ = nullptr;
  views::CompareWidget* compare_ = nullptr;
  views::PropertiesPanel* properties_ = nullptr;
  RunPanel* runPanel_ = nullptr;
  SearchRunner* runner_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  QLabel* modelStatus_ = nullptr;
  QLabel* bestStatus_ = nullptr;

  QAction* openAction_ = nullptr;
  QAction* exportOnnxAction_ = nullptr;
  QAction* exportPngAction_ = nullptr;
  QAction* exportSvgAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  QAction* findAction_ = nullptr;
  QAction* fitAction_ = nullptr;
  QAction* actualSizeAction_ = nullptr;
  QAction* zoomInAction_ = nullptr;
  QAction* zoomOutAction_ = nullptr;
  QAction* weightsAction_ = nullptr;
  QAction* shapesAction_ = nullptr;
  QAction* heatAction_ = nullptr;
  QAction* miniMapAction_ = nullptr;
  QAction* startAction_ = nullptr;
  QAction* stopAction_ = nullptr;
  QActionGroup* themeGroup_ = nullptr;
  QMenu* recentMenu_ = nullptr;
};

} // namespace tessera::gui
