#include "live/SeriesReportsPanel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QMap>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera::views {

ReportLine reportLineOf(const ReportRun& run, const std::string& variant) {
  ReportLine line{run.path, {}, {}, {}};
  line.series.group = QString::fromStdString(variant.empty() ? run.agent : run.agent + " " + variant);
  line.series.label = reportSeriesLabel(run, line.series.group);
  return line;
}

SeriesReportsPanel::SeriesReportsPanel(Reader read, const QString& kinds, QWidget* parent)
    : QWidget(parent), read_(read), kinds_(kinds) {
  chart_ = new SeriesChart(this);
  add_ = new QPushButton(tr("Add reports…"), this);
  add_->setToolTip(tr("Training reports of %1 agents (tessera-cli rl train --json)").arg(kinds));
  error_ = makeReportErrorLabel(this);
  notes_ = new QLabel(this);
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* bar = new QHBoxLayout;
  bar->addWidget(add_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(bar);
  layout->addWidget(error_);
  layout->addWidget(chart_, 1);
  layout->addWidget(notes_);
  connect(add_, &QPushButton::clicked, this, &SeriesReportsPanel::chooseReports);
}

QString SeriesReportsPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }
QString SeriesReportsPanel::notesText() const { return notes_->text(); }

void SeriesReportsPanel::chooseReports() {
  const QStringList paths = askForReports(this, kinds_);
  if (!paths.isEmpty()) loadReports(paths, /*replace=*/false);
}

void SeriesReportsPanel::loadReports(const QStringList& paths, bool replace) {
  loads_.start(
      this, paths, replace, read_,
      [this, replace](std::vector<ReportLine> lines, const QStringList& errors) { showLines(std::move(lines), errors, replace); },
      [this](const QStringList& errors) { emit loaded(errors); });
}

void SeriesReportsPanel::showLines(std::vector<ReportLine> lines, const QStringList& errors, bool replace) {
  if (replace) lines_.clear();
  mergeReports(lines_, std::move(lines));
  // Two reports of one agent and seed (another run's report, a variant) would share a legend entry:
  // such lines are told apart by their file's name, in the legend and in their notes.
  QMap<QString, int> uses;
  for (const ReportLine& line : lines_) ++uses[line.series.label];
  std::vector<ChartSeries> series;
  QStringList notes;
  for (const ReportLine& line : lines_) {
    ChartSeries shown = line.series;
    if (uses[shown.label] > 1) shown.label += QStringLiteral(" · ") + QFileInfo(QString::fromStdString(line.path)).fileName();
    series.push_back(shown);
    for (const QString& note : line.notes)
      if (!notes.contains(note)) notes << note;
    for (const QString& note : line.ownNotes) notes << shown.label + QStringLiteral(": ") + note;
  }
  chart_->setSeries(std::move(series));
  notes_->setText(notes.join(QStringLiteral("\n")));
  showReportErrors(error_, errors);
}

} // namespace tessera::views
