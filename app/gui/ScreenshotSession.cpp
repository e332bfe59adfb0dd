#include "ScreenshotSession.h"

#include "MainWindow.h"
#include "UiStallMonitor.h"
#include "UserGuide.h"

#include "CompareWidget.h"
#include "GraphView.h"
#include "live/EGraphView.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPixmap>
#include <QTextBrowser>
#include <QTimer>

#include <cstdio>

namespace tessera::gui {

namespace {
constexpr int kPollMs = 100;
constexpr int kMaxExtraWaitMs = 120'000;

QJsonObject framesJson(const views::GraphView* view) {
  views::FrameStats stats = view->frameStats();
  return QJsonObject{{"frames", stats.frames}, {"mean_ms", stats.meanMs}, {"p95_ms", stats.p95Ms}, {"max_ms", stats.maxMs}};
}
} // namespace

ScreenshotSession::ScreenshotSession(MainWindow* window, UiStallMonitor* monitor, QString pngPath, double afterSeconds)
    : QObject(window), window_(window), monitor_(monitor), pngPath_(std::move(pngPath)), afterSeconds_(afterSeconds) {}

void ScreenshotSession::start() {
  QTimer::singleShot(static_cast<int>(afterSeconds_ * 1000), this, [this] { captureWhenIdle(); });
}

void ScreenshotSession::captureWhenIdle() {
  if (window_->isBusy() && waitedMs_ < kMaxExtraWaitMs) {
    if (!announcedWait_) {
      std::fprintf(stderr, "tessera: waiting for the model, layout or run to finish before the screenshot\n");
      announcedWait_ = true;
    }
    waitedMs_ += kPollMs;
    QTimer::singleShot(kPollMs, this, [this] { captureWhenIdle(); });
    return;
  }
  // One more turn of the event loop so that the last layout is painted.
  QTimer::singleShot(50, this, [this] { capture(); });
}

void ScreenshotSession::capture() {
  double stall = monitor_->maxGapMs(); // measured before the grab, which is ours, not the UI's
  QPixmap picture = window_->grab();
  bool saved = picture.save(pngPath_, "PNG");
  if (!saved) std::fprintf(stderr, "tessera: cannot write %s\n", qPrintable(pngPath_));

  QJsonObject views;
  QMap<QString, int> items = window_->itemsShown();
  for (auto it = items.cbegin(); it != items.cend(); ++it) views.insert(it.key(), it.value());
  QJsonObject report{{"views", views},
                     {"max_ui_stall_ms", stall},
                     {"max_ui_stall_at_ms", monitor_->maxGapAtMs()},
                     {"startup_ui_stall_ms", monitor_->startupGapMs()},
                     {"current_view", window_->currentViewName()},
                     {"open_seconds", window_->lastOpenSeconds()},
                     {"waited_extra_ms", waitedMs_},
                     {"frame_ms", QJsonObject{{"graph", framesJson(window_->graphView())},
                                              {"compare", framesJson(window_->compareWidget()->beforeView())}}}};
  QJsonObject updates;
  QMap<QString, double> rates = window_->updatesPerSecond();
  for (auto it = rates.cbegin(); it != rates.cend(); ++it) updates.insert(it.key(), it.value());
  report.insert("updates_per_second", updates);
  report.insert("egraph_zoom", window_->egraphView()->zoom());
  if (!window_->lastError().isEmpty()) report.insert("last_error", window_->lastError());
  // The user guide is a window of its own (--guide): grabbed beside the main window as PNG-guide.png.
  if (auto* guide = window_->findChild<UserGuide*>(); guide && guide->isVisible()) {
    QString guidePng = pngPath_;
    if (guidePng.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) guidePng.chop(4);
    guidePng += QStringLiteral("-guide.png");
    if (!guide->grab().save(guidePng, "PNG")) {
      std::fprintf(stderr, "tessera: cannot write %s\n", qPrintable(guidePng));
      saved = false;
    }
    report.insert("guide_page", guide->browser()->source().toString());
    report.insert("guide_png", guidePng);
  }
  QFile json(pngPath_ + QStringLiteral(".json"));
  bool written = json.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                 json.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) > 0;
  if (!written) std::fprintf(stderr, "tessera: cannot write %s.json\n", qPrintable(pngPath_));
  json.close();
  std::fprintf(stderr, "tessera: wrote %s (%dx%d), max UI stall %.1f ms\n", qPrintable(pngPath_), picture.width(),
               picture.height(), stall);
  QCoreApplication::exit(saved && written ? 0 : 1);
}

} // namespace tessera::gui
