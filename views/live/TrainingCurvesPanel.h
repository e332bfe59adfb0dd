// The "Training" tab: the training curves of RL agents from the reports `tessera-cli rl train
// --json` writes, chosen by the user (Add reports…), read off the UI thread. A report that cannot
// be read is named with its problem above the chart; the others are still shown.
#pragma once

#include "live/ReportLoading.h"
#include "rl/TrainingReport.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QSpinBox;

namespace tessera::views {

class TrainingCurveChart;

class TrainingCurvesPanel : public QWidget {
  Q_OBJECT
public:
  explicit TrainingCurvesPanel(QWidget* parent = nullptr);

  TrainingCurveChart* chart() const { return chart_; }
  QString errorText() const; // what the last load could not read, empty when all went well
  bool isLoading() const { return loads_.busy(); }

public slots:
  // Reads the reports on a worker; `replace` drops the curves shown, else they are added to
  // (a report already shown is read again in its place). Emits loaded() when done.
  void loadReports(const QStringList& paths, bool replace);
  // Asks the user for reports to add.
  void chooseReports();

signals:
  // Every file of a loadReports call is read or refused; `errors` names each refused file.
  void loaded(const QStringList& errors);

private:
  void showLoaded(std::vector<TrainingCurve> curves, const QStringList& errors, bool replace);

  TrainingCurveChart* chart_;
  QPushButton* add_;
  QPushButton* clear_;
  QSpinBox* smoothing_;
  QLabel* error_;
  ReportLoads loads_;
  bool smoothingChosen_ = false; // by a person; else whole rounds of the reports' models
};

} // namespace tessera::views
