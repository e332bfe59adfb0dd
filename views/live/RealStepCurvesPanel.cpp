#include "live/RealStepCurvesPanel.h"

#include "rl/RealStepCurve.h"

namespace tessera::views {

namespace {

ReportLine realStepLine(const std::string& path) {
  const RealStepCurve curve = readRealStepCurve(path);
  ReportLine line = reportLineOf(curve, curve.variant);
  ChartSeries& series = line.series;
  series.markers = curve.points.size() <= 12; // evaluations, far apart; a point per episode would hide the line
  for (const RealStepPoint& point : curve.points) series.points.append(QPointF(point.realSteps, point.reward));
  line.notes << QObject::tr("%1: %2").arg(QString::fromStdString(curve.agent), QString::fromStdString(curve.measure));
  if (curve.agent == "xrlflow") line.notes << QObject::tr("X-RLflow's argmax evaluations are not in its reports' step counts; RLFlow's are in its.");
  return line;
}

} // namespace

RealStepCurvesPanel::RealStepCurvesPanel(QWidget* parent) : SeriesReportsPanel(realStepLine, tr("xrlflow or rlflow"), parent) {
  chart()->setTitles(tr("Reward against real environment steps"), tr("real environment steps"), tr("reward (% of the start cost saved)"));
}

} // namespace tessera::views
