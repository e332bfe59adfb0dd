// tessera: the explorer GUI. See CommandLine.h for the arguments and ScreenshotSession.h for
// the unattended screenshot mode used by CI and documentation.
#include "CommandLine.h"
#include "JobsPanel.h"
#include "MainWindow.h"
#include "RunPanel.h"
#include "RunSettings.h"
#include "ScreenshotSession.h"
#include "UserGuide.h"
#include "StallTracingApplication.h"
#include "SipPage.h"
#include "TuningPage.h"
#include "UiStallMonitor.h"

#include "interp/KernelSupport.h"
#include "support/Error.h"

#include <QAccessible>
#include <QBackingStore>
#include <QEventLoop>
#include <QFontDatabase>
#include <QImageReader>
#include <QPainter>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <functional>

#include <cstdio>

using namespace tessera::gui;

namespace {
// Makes the window's native surface and backing store, and touches the store's memory, before the
// window is shown: the first paint of a new backing store otherwise waits for the X server to attach
// the shared memory and pays a page fault per 4 KiB of a window-sized buffer, which under Xvfb in a
// virtual machine took 30-50 ms on top of the paint itself. Done as its own event, it is one short
// stall instead of a longer first paint.
void prepareSurface(QWidget& window) {
  window.winId();
  QBackingStore* store = window.backingStore();
  if (!store) return;
  store->resize(window.size());
  QRect all(QPoint(0, 0), window.size());
  store->beginPaint(all);
  if (QPaintDevice* device = store->paintDevice()) {
    QPainter painter(device);
    painter.fillRect(all, window.palette().window());
  }
  store->endPaint();
}

// Handles the events that are due (the stall monitor's heartbeat among them) between two start-up
// steps that run before the application's event loop, so that they are two short stalls, not one.
void letTheEventLoopTurn() {
  QEventLoop loop;
  QTimer::singleShot(1, &loop, &QEventLoop::quit);
  loop.exec();
}

// Runs `then` from the event loop once `window` has been exposed (and its first frame painted), so
// that the window appears before the work it starts fills it: a model loaded before the first paint
// made that paint, and the one after it, several times slower. A window that is not exposed within
// a second (started minimised, say) gets `then` anyway.
void afterFirstExpose(QWidget& window, std::function<void()> then) {
  class FirstExpose final : public QObject {
  public:
    FirstExpose(QWindow* window, std::function<void()> then) : QObject(window), window_(window), then_(std::move(then)) {
      window_->installEventFilter(this);
      QTimer::singleShot(1000, this, &FirstExpose::run);
    }
    bool eventFilter(QObject*, QEvent* event) override {
      if (event->type() == QEvent::Expose && window_->isExposed()) run();
      return false;
    }

  private:
    void run() {
      if (!then_) return;
      QTimer::singleShot(0, window_, std::move(then_));
      then_ = nullptr;
      window_->removeEventFilter(this);
      deleteLater();
    }
    QWindow* window_;
    std::function<void()> then_;
  };
  window.winId();
  new FirstExpose(window.windowHandle(), std::move(then));
}
} // namespace

int main(int argc, char** argv) {
  StallTracingApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("Tessera"));
  QCoreApplication::setApplicationName(QStringLiteral("tessera"));
  QCoreApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));
  // The reference interpreter (verifying a result, pricing nothing else) leaves the UI thread a
  // core: a team as large as the machine starves it and the window stalls while a run verifies.
  tessera::interp::forceParallelThreads(std::max(1, QThread::idealThreadCount() - 1));

  CommandLine command = parseCommandLine(QCoreApplication::arguments());
  if (!command.error.isEmpty()) {
    std::fprintf(stderr, "tessera: %s\nRun 'tessera --help' for the options.\n", qPrintable(command.error));
    return 2;
  }
  bool screenshot = !command.screenshot.isEmpty();

  UiStallMonitor monitor;
  monitor.start();

  // The font database and the image-format plugins are loaded the first time a label or an icon
  // needs them, in the middle of building the window; a worker loads them meanwhile instead.
  QThreadPool::globalInstance()->start([] {
    QFontDatabase::families();
    QImageReader::supportedImageFormats();
  });

  // A screenshot must not depend on (or change) the user's saved layout, and must not block on a dialog.
  MainWindowOptions options;
  options.persistSettings = !screenshot;
  options.interactiveErrors = !screenshot;
  app.traceStartup("application and command line");
  // The accessibility bridge is made the first time a widget is named, and connects to the session
  // bus: where there is none (under Xvfb) D-Bus tries to launch one, 20-30 ms. Made here, as its
  // own step, it is not part of building the window.
  QAccessible::isActive();
  app.traceStartup("accessibility bridge");
  letTheEventLoopTurn();
  MainWindow window(options);
  app.traceStartup("window built");
  if (screenshot) window.resize(1600, 1000);
  // Shown from timers once the event loop runs, not now: building the window, preparing its surface
  // and showing it (with its first layout and paint) are then three events, each shorter than a
  // stall, instead of one start-up gap as long as all together. (A zero timeout would be a posted
  // call, handled before any timer, so back to back with the previous step as far as the heartbeat
  // can tell.)
  QTimer::singleShot(1, &window, [&app, &window] {
    app.traceStartup("event loop started");
    prepareSurface(window);
    app.traceStartup("surface prepared");
    QTimer::singleShot(1, &window, [&app, &window] {
      window.show();
      app.traceStartup("window shown");
    });
  });

  if (screenshot) {
    QObject::connect(&window, &MainWindow::modelFailed, &app, [](const QString& message) {
      std::fprintf(stderr, "tessera: %s\n", qPrintable(message));
      QCoreApplication::exit(1);
    });
    QObject::connect(&window, &MainWindow::runFailed, &app, [](const QString& message) {
      std::fprintf(stderr, "tessera: search failed: %s\n", qPrintable(message));
      QCoreApplication::exit(1);
    });
    QObject::connect(window.tuningPage(), &TuningPage::databaseFailed, &app, [](const QString& message) {
      std::fprintf(stderr, "tessera: %s\n", qPrintable(message));
      QCoreApplication::exit(1);
    });
    QObject::connect(window.tuningPage(), &TuningPage::runFailed, &app, [](const QString& message) {
      std::fprintf(stderr, "tessera: tuning failed: %s\n", qPrintable(message));
      QCoreApplication::exit(1);
    });
  }

  const bool tuning = !command.tuneWorkload.isEmpty() || !command.tuningDatabase.isEmpty();
  window.showView(tuning && !command.viewGiven ? QStringLiteral("tuning") : command.view);
  if (!command.trainingReports.isEmpty()) window.showTrainingReports(command.trainingReports);
  if (!command.guide.isEmpty())
    UserGuide::showPage(&window, command.guide == QLatin1String("view") ? UserGuide::pageForView(window.currentViewName()) : command.guide);
  if (command.paceMs) window.runPanel()->setStepIntervalMs(*command.paceMs);
  if (command.costSpec || command.nodeLimit || command.multiIterations || !command.parameters.empty()) {
    try {
      RunSettings settings = window.runPanel()->settings();
      applyRunOptions(command, settings);
      window.runPanel()->setSettings(settings);
    } catch (const tessera::Error& e) {
      std::fprintf(stderr, "tessera: the run panel's settings: %s\n", e.what());
      return 2;
    }
  }

  if (!command.run.isEmpty()) {
    if (command.file.isEmpty()) std::fprintf(stderr, "tessera: --run needs a model or session to run on\n");
    else window.runWhenLoaded(command.run);
  }
  if (!command.file.isEmpty())
    afterFirstExpose(window, [&window, file = command.file, shapes = command.shapes] { window.openPath(file, shapes); });
  // The database is read first, so that --tune's records go into it.
  if (!command.tuningDatabase.isEmpty()) window.tuningPage()->openDatabase(command.tuningDatabase);
  if (!command.sipReport.isEmpty() && !window.sipPage()->openReport(command.sipReport)) {
    std::fprintf(stderr, "tessera: --sip-report: %s\n", qPrintable(window.sipPage()->errorText()));
    return 1;
  }
  if (!command.jobsWorkDir.isEmpty() && !window.jobsPanel()->openWorkDir(command.jobsWorkDir)) {
    std::fprintf(stderr, "tessera: --jobs: %s\n", qPrintable(window.jobsPanel()->errorText()));
    return 1;
  }
  if (!command.tuneWorkload.isEmpty() && !window.tuningPage()->startTuning(command.tuneWorkload, command.tuneTrials)) {
    std::fprintf(stderr, "tessera: --tune: %s\n", qPrintable(window.tuningPage()->errorText()));
    if (screenshot) return 2;
  }

  if (screenshot) {
    auto* session = new ScreenshotSession(&window, &monitor, command.screenshot, command.afterSeconds);
    session->start();
  }
  app.traceStartup("model and run requested");
  return app.exec();
}
