#include "TrainingPage.h"

#include "live/RealStepCurvesPanel.h"
#include "live/StrengthCurvesPanel.h"
#include "live/TrainingCurveChart.h"
#include "live/TrainingCurvesPanel.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tessera::gui {

namespace {

// The agent a report names (`rl train --json` writes "agent"); empty for a file that cannot be read
// as one, which every chart is then given, so that each says what is wrong with it.
QString reportAgent(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("agent")).toString();
}

} // namespace

TrainingPage::TrainingPage(QStringList reports, QWidget* parent)
    : QWidget(parent), reports_(std::move(reports)), realStepReports_(shippedSampleEfficiencyReports()),
      strengthReports_(shippedSelfPlayReports()) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  charts_ = new QTabWidget(this);
  charts_->setDocumentMode(true);
  charts_->setTabPosition(QTabWidget::South);
  layout->addWidget(charts_);
}

QStringList TrainingPage::shippedSampleEfficiencyReports() {
  const QDir dir(QStringLiteral(TESSERA_AGENTS_DIR "/sample-efficiency"));
  QStringList paths;
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) paths << dir.filePath(name);
  return paths;
}

QStringList TrainingPage::shippedSelfPlayReports() {
  const QDir agents(QStringLiteral(TESSERA_AGENTS_DIR));
  QStringList paths;
  if (agents.exists(QStringLiteral("puct-training.json"))) paths << agents.filePath(QStringLiteral("puct-training.json"));
  // The shipped recipe's other seeds and the visit-share recipe's on the same models: the comparison
  // rl-agents.md makes. The older seeds stay in seeds/ for Add reports...
  const QDir seeds(agents.filePath(QStringLiteral("seeds")));
  for (const QString& name : seeds.entryList({QStringLiteral("puct-all-suites-*.json")}, QDir::Files, QDir::Name)) paths << seeds.filePath(name);
  return paths;
}

views::TrainingCurvesPanel* TrainingPage::panel() {
  if (panel_) return panel_;
  panel_ = new views::TrainingCurvesPanel(charts_);
  realSteps_ = new views::RealStepCurvesPanel(charts_);
  // The sample-efficiency chart first: what issue #33 asks the tab to show.
  charts_->addTab(realSteps_, tr("Reward by real environment steps"));
  charts_->addTab(panel_, tr("Reward per episode"));
  strength_ = new views::StrengthCurvesPanel(charts_);
  charts_->addTab(strength_, tr("Self-play strength by generation"));
  connect(panel_, &views::TrainingCurvesPanel::loaded, this, &TrainingPage::loaded);
  if (!reports_.isEmpty()) panel_->loadReports(reports_, /*replace=*/true);
  if (!realStepReports_.isEmpty()) realSteps_->loadReports(realStepReports_, /*replace=*/true);
  if (!strengthReports_.isEmpty()) strength_->loadReports(strengthReports_, /*replace=*/true);
  reports_.clear();
  realStepReports_.clear();
  strengthReports_.clear();
  if (selfPlayFirst_) charts_->setCurrentWidget(strength_);
  return panel_;
}

views::RealStepCurvesPanel* TrainingPage::realStepsPanel() {
  panel();
  return realSteps_;
}

views::StrengthCurvesPanel* TrainingPage::strengthPanel() {
  panel();
  return strength_;
}

void TrainingPage::showReports(const QStringList& paths) {
  // A PUCT self-play report has only generations to draw, and an RL agent's report no generations:
  // each goes to the charts that draw it, instead of being refused by the others.
  QStringList episodic, selfPlay;
  for (const QString& path : paths) {
    const QString agent = reportAgent(path);
    if (agent != QStringLiteral("puct")) episodic << path;
    if (agent.isEmpty() || agent == QStringLiteral("puct")) selfPlay << path;
  }
  selfPlayFirst_ = episodic.isEmpty() && !selfPlay.isEmpty();
  if (!panel_) {
    reports_ = episodic;
    realStepReports_ = episodic;
    strengthReports_ = selfPlay;
    return;
  }
  panel_->loadReports(episodic, /*replace=*/true);
  realSteps_->loadReports(episodic, /*replace=*/true);
  strength_->loadReports(selfPlay, /*replace=*/true);
  charts_->setCurrentWidget(selfPlayFirst_ ? static_cast<QWidget*>(strength_) : realSteps_);
}

bool TrainingPage::isLoading() const { return panel_ && (panel_->isLoading() || realSteps_->isLoading() || strength_->isLoading()); }

QWidget* TrainingPage::currentChart() const { return panel_ ? charts_->currentWidget() : nullptr; }

int TrainingPage::curvesShown() const { return panel_ ? panel_->chart()->seriesCount() : 0; }

} // namespace tessera::gui
