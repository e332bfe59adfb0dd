// `--screenshot PNG --after SECONDS`: after the delay (and once an open, layout or run started from
// the command line has finished, at most two minutes more), grab the main window to PNG and write
// PNG.json = {"views": {name: items shown}, "max_ui_stall_ms": N, ...}, then quit.
#pragma once

#include <QObject>
#include <QString>

namespace tessera::gui {

class MainWindow;
class UiStallMonitor;

class ScreenshotSession final : public QObject {
public:
  ScreenshotSession(MainWindow* window, UiStallMonitor* monitor, QString pngPath, double afterSeconds);
  void start();

private:
  void captureWhenIdle();
  void capture();

  MainWindow* window_;
  UiStallMonitor* monitor_;
  QString pngPath_;
  double afterSeconds_;
  int waitedMs_ = 0;
  bool announcedWait_ = false;
};

} // namespace tessera::gui
