// The Training tab's sample-efficiency chart: reward against real environment steps for the
// training reports of X-RLflow and RLFlow (rl/RealStepCurve.h), one colour an agent and one dash a
// seed, read off the UI thread. A report that cannot be read is named with its problem above the
// chart; the others are still shown. Below it: what each agent's points are.
#pragma once

#include "rl/RealStepCurve.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace tessera::views {

class SeriesChart;

class RealStepCurvesPanel : public QWidget {
  Q_OBJECT
public:
  explicit RealStepCurvesPanel(QWidget* parent = nullptr);

  SeriesChart* chart() const { return chart_; }
  QString errorText() const; // what the last load could not read, empty when all went well
  bool isLoading() const { return loading_ > 0; }

public slots:
  // Reads the reports on a worker and shows them instead of the curves shown (`replace`) or
  // beside them. Emits loaded() when done.
  void loadReports(const QStringList& paths, bool replace);
  void chooseReports();

signals:
  void loaded(const QStringList& errors);

private:
  void show(std::vector<RealStepCurve> curves, const QStringList& errors, bool replace);

  SeriesChart* chart_;
  QPushButton* add_;
  QLabel* error_;
  QLabel* measures_;
  std::vector<RealStepCurve> curves_;
  int loading_ = 0;
  int generation_ = 0; // a replacing load supersedes the loads before it
};

} // namespace tessera::views
