// The Training tab's page: three charts of RL training reports, each a sub-tab: the reward of each
// episode (the shipped X-RLflow agent's report by default), reward against real environment
// steps (the sample-efficiency runs of X-RLflow and RLFlow, three seeds each, in
// resources/agents/sample-efficiency), and PUCT's self-play strength by generation (the shipped
// agent's training and its other seeds). Both are made, and their reports read, the first time the tab
// is chosen: made with the window, the chart and the shipped agent's curve were a tenth of the UI
// thread's start-up (about 10 ms of CPU), for a tab most sessions never open.
#pragma once

#include <QStringList>
#include <QWidget>

class QTabWidget;

namespace tessera::views {
class RealStepCurvesPanel;
class StrengthCurvesPanel;
class TrainingCurvesPanel;
} // namespace tessera::views

namespace tessera::gui {

class TrainingPage : public QWidget {
  Q_OBJECT

public:
  // `reports`: what the per-episode chart shows when it is made (the shipped agent's report, or none).
  TrainingPage(QStringList reports, QWidget* parent = nullptr);

  // Makes the panels (once) and starts reading the reports asked for so far.
  views::TrainingCurvesPanel* panel();
  views::RealStepCurvesPanel* realStepsPanel();
  views::StrengthCurvesPanel* strengthPanel();
  bool isBuilt() const { return panel_ != nullptr; }
  // These reports instead of the ones asked for before, each in the charts that draw it (a PUCT
  // report in the strength chart, another agent's in the other two): read now if the panels are
  // made, else when they are.
  void showReports(const QStringList& paths);
  bool isLoading() const;
  int curvesShown() const; // of the per-episode chart; 0 until the panels are made
  // The chart in front: reports that are all PUCT self-play reports open on the strength chart,
  // the only one that draws them; others on the real-step chart. Null until the panels are made.
  QWidget* currentChart() const;
  // The sample-efficiency reports shipped with Tessera, the real-step chart's default.
  static QStringList shippedSampleEfficiencyReports();
  // The shipped PUCT agent's training report and its seeds', the strength chart's default.
  static QStringList shippedSelfPlayReports();

signals:
  // The per-episode panel read a showReports (or the first) batch; `errors` names each report it refused.
  void loaded(const QStringList& errors);

private:
  QTabWidget* charts_;
  views::TrainingCurvesPanel* panel_ = nullptr;
  views::RealStepCurvesPanel* realSteps_ = nullptr;
  views::StrengthCurvesPanel* strength_ = nullptr;
  QStringList reports_;          // shown by the per-episode chart when it is made
  QStringList realStepReports_;  // by the real-step chart
  QStringList strengthReports_;  // by the self-play strength chart
  bool selfPlayFirst_ = false;   // the reports asked for are all self-play reports
};

} // namespace tessera::gui
