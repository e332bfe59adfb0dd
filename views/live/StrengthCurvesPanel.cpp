#include "live/StrengthCurvesPanel.h"

#include "rl/StrengthCurve.h"

namespace tessera::views {

namespace {

ReportLine strengthLine(const std::string& path) {
  const StrengthCurve curve = readStrengthCurve(path);
  ReportLine line = reportLineOf(curve, curve.variant);
  ChartSeries& series = line.series;
  series.markers = true; // a handful of generations
  for (const GenerationStrength& g : curve.generations) series.points.append(QPointF(g.generation, g.meanSpeedupPct));
  // The final network plays every model once after the last generation: other games than a
  // generation's, so said below rather than drawn as one more point.
  if (curve.finalMeanSpeedupPct)
    line.ownNotes << QObject::tr("final network %1 % (every model once)").arg(*curve.finalMeanSpeedupPct, 0, 'f', 2);
  return line;
}

} // namespace

StrengthCurvesPanel::StrengthCurvesPanel(QWidget* parent) : SeriesReportsPanel(strengthLine, tr("puct"), parent) {
  chart()->setTitles(tr("Self-play strength by generation"), tr("generation (1: the untrained network)"),
                     tr("mean verified speedup of its games (%)"));
}

} // namespace tessera::views
