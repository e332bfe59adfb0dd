// The compare view's second line: what the device measured beside what the cost model predicted.
// A cost model only predicts; this line times both graphs end to end on a real backend
// (interleaved pairs, EndToEndComparison.h) when the user asks, and shows the medians and the
// speedup with its interval. The timing itself is the controller's: views never run a graph.
#pragma once

#include "cost/EndToEndComparison.h"

#include <QWidget>

class QColor;
class QLabel;
class QPushButton;

namespace tessera::views {

class MeasuredLatencyBar : public QWidget {
  Q_OBJECT

public:
  explicit MeasuredLatencyBar(QWidget* parent = nullptr);

  // New graphs: nothing measured yet. `backend` names where a timing would run ("cpu"); empty
  // when no measured backend is usable here, which `why` explains.
  void reset(const QString& backend, const QString& why = {});
  void setMeasuring();
  // The speedup is coloured `faster` when its whole interval is above zero, `slower` when below.
  void setMeasured(const EndToEndComparison& comparison, const QColor& faster, const QColor& slower);
  void setFailed(const QString& error);

  QString text() const;
  QPushButton* measureButton() const { return measure_; }
  bool hasMeasurement() const { return measured_; }
  bool isMeasuring() const { return measuring_; } // since setMeasuring, until reset, measured or failed

signals:
  void measureRequested();

private:
  QLabel* line_;
  QPushButton* measure_;
  bool measured_ = false;
  bool measuring_ = false;
};

} // namespace tessera::views
