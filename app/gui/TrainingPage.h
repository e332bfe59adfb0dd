// The Training tab's page: the training-curve panel (Qt Charts) is made, and its reports read, the
// first time the tab is chosen. Made with the window, the chart and the shipped agent's curve were
// a tenth of the UI thread's start-up (about 10 ms of CPU), for a tab most sessions never open.
#pragma once

#include <QStringList>
#include <QWidget>

namespace tessera::views {
class TrainingCurvesPanel;
}

namespace tessera::gui {

class TrainingPage : public QWidget {
  Q_OBJECT

public:
  // `reports`: what the panel shows when it is made (the shipped agent's report, or none).
  TrainingPage(QStringList reports, QWidget* parent = nullptr);

  // Makes the panel (once) and starts reading the reports asked for so far.
  views::TrainingCurvesPanel* panel();
  bool isBuilt() const { return panel_ != nullptr; }
  // These reports instead of the ones asked for before: read now if the panel is made, else when it is.
  void showReports(const QStringList& paths);
  bool isLoading() const;
  int curvesShown() const; // 0 until the panel is made

signals:
  // The panel read a showReports (or the first) batch; `errors` names each report it refused.
  void loaded(const QStringList& errors);

private:
  views::TrainingCurvesPanel* panel_ = nullptr;
  QStringList reports_; // shown when the panel is made
};

} // namespace tessera::gui
