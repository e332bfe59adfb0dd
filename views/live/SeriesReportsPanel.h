// A Training tab chart of one kind of training report as labelled series (live/SeriesChart.h): an
// Add button, the refused reports named above the chart, what the lines are said below it. The
// kinds (reward by real steps, self-play strength) differ only in how a report becomes its line.
#pragma once

#include "live/ReportLoading.h"
#include "live/SeriesChart.h"

#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QPushButton;

namespace tessera::views {

// One report as the chart shows it, made on the worker that reads it.
struct ReportLine {
  std::string path;
  ChartSeries series;
  QStringList notes;     // lines below the chart; a line several reports give is said once
  QStringList ownNotes;  // below the chart too, each after this line's legend label ("label: note")
};

// A report's line before its points: its path, its group (the agent, and how it trained when the
// report says: `variant`) and its label; each reader adds the points and notes of its kind.
ReportLine reportLineOf(const ReportRun& run, const std::string& variant);

class SeriesReportsPanel : public QWidget {
  Q_OBJECT
public:
  // Throws tessera::Error naming the file when it is not a report of this chart's kind.
  using Reader = ReportLine (*)(const std::string& path);

  // `kinds`: whose reports the chart takes, for the Add dialog ("xrlflow or rlflow").
  SeriesReportsPanel(Reader read, const QString& kinds, QWidget* parent = nullptr);

  SeriesChart* chart() const { return chart_; }
  QString errorText() const; // what the last load could not read, empty when all went well
  QString notesText() const; // what is said below the chart
  bool isLoading() const { return loads_.busy(); }

public slots:
  // Reads the reports on a worker and shows them instead of the lines shown (`replace`) or
  // beside them (a report shown already is read again in its place). Emits loaded() when done.
  void loadReports(const QStringList& paths, bool replace);
  void chooseReports();

signals:
  void loaded(const QStringList& errors);

private:
  void showLines(std::vector<ReportLine> lines, const QStringList& errors, bool replace);

  Reader read_;
  QString kinds_;
  SeriesChart* chart_;
  QPushButton* add_;
  QLabel* error_;
  QLabel* notes_;
  std::vector<ReportLine> lines_;
  ReportLoads loads_;
};

} // namespace tessera::views
