#include "TrainingPage.h"

#include "live/TrainingCurveChart.h"
#include "live/TrainingCurvesPanel.h"

#include <QVBoxLayout>

namespace tessera::gui {

TrainingPage::TrainingPage(QStringList reports, QWidget* parent) : QWidget(parent), reports_(std::move(reports)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
}

views::TrainingCurvesPanel* TrainingPage::panel() {
  if (panel_) return panel_;
  panel_ = new views::TrainingCurvesPanel(this);
  layout()->addWidget(panel_);
  connect(panel_, &views::TrainingCurvesPanel::loaded, this, &TrainingPage::loaded);
  if (!reports_.isEmpty()) panel_->loadReports(reports_, /*replace=*/true);
  reports_.clear();
  return panel_;
}

void TrainingPage::showReports(const QStringList& paths) {
  if (!panel_) {
    reports_ = paths;
    return;
  }
  panel_->loadReports(paths, /*replace=*/true);
}

bool TrainingPage::isLoading() const { return panel_ && panel_->isLoading(); }

int TrainingPage::curvesShown() const { return panel_ ? panel_->chart()->seriesCount() : 0; }

} // namespace tessera::gui
