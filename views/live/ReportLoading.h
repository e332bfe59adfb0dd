// How the Training tab's charts load training reports: each file read on a worker, read or refused
// with its problem, handed back on the UI thread, with a later replacing load superseding the
// loads before it; the chosen files come from one dialog and the refused ones are named above the
// chart. One place for what every panel of the tab does alike.
#pragma once

#include "BackgroundWork.h"
#include "rl/TrainingReport.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

class QLabel;
class QWidget;

namespace tessera::views {

template <typename Curve>
struct LoadedReports {
  std::vector<Curve> curves;
  QStringList errors; // one a refused file, naming it
};

// The loads of one chart: how many run, and which replacing load is the latest.
class ReportLoads {
public:
  bool busy() const { return running_ > 0; }
  // What is under way no longer shows (the chart was cleared).
  void supersede() { ++generation_; }

  // Reads `paths` with `read` (which throws naming the file) on a worker; then, on `owner`'s
  // thread, `show(curves, errors)` unless a later replacing load superseded this one, and
  // `finished(errors)` in any case.
  template <typename Curve, typename Show, typename Finished>
  void start(QObject* owner, const QStringList& paths, bool replace, Curve (*read)(const std::string&), Show show, Finished finished) {
    if (replace) supersede();
    const int generation = generation_;
    ++running_;
    auto* watcher = new QFutureWatcher<LoadedReports<Curve>>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [this, watcher, generation, show, finished] {
      watcher->deleteLater();
      --running_;
      LoadedReports<Curve> loaded = watcher->result();
      if (generation == generation_) show(std::move(loaded.curves), loaded.errors);
      finished(loaded.errors);
    });
    watcher->setFuture(runInBackground([paths, read] {
      LoadedReports<Curve> loaded;
      for (const QString& path : paths) {
        try {
          loaded.curves.push_back(read(path.toStdString()));
        } catch (const std::exception& e) {
          loaded.errors << QString::fromUtf8(e.what());
        }
      }
      return loaded;
    }));
  }

private:
  int running_ = 0;
  int generation_ = 0;
};

// `shown` with `curves` added: a report already shown (the same path) is replaced in its place.
template <typename Curve>
void mergeReports(std::vector<Curve>& shown, std::vector<Curve> curves) {
  for (Curve& curve : curves) {
    auto same = std::find_if(shown.begin(), shown.end(), [&](const Curve& c) { return c.path == curve.path; });
    if (same != shown.end()) *same = std::move(curve);
    else shown.push_back(std::move(curve));
  }
}

// A report's line in a chart's legend: "puct · seed 2", or the file's name when it has no seed.
QString reportSeriesLabel(const ReportRun& run, const QString& group);

// Asks the user for training reports to add (`kinds` says whose); empty when cancelled.
QStringList askForReports(QWidget* parent, const QString& kinds);
// The label above a chart that names the reports it could not show; hidden while there are none.
QLabel* makeReportErrorLabel(QWidget* parent);
void showReportErrors(QLabel* label, const QStringList& errors);

} // namespace tessera::views
