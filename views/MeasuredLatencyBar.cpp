#include "MeasuredLatencyBar.h"

#include <QColor>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace tessera::views {

MeasuredLatencyBar::MeasuredLatencyBar(QWidget* parent) : QWidget(parent) {
  line_ = new QLabel(this);
  line_->setTextFormat(Qt::RichText);
  line_->setWordWrap(true);
  line_->setContentsMargins(6, 0, 6, 2);
  measure_ = new QPushButton(tr("Time end to end"), this);
  measure_->setToolTip(tr("Run both graphs on the device, interleaved, and compare their medians with what the cost model "
                          "predicted (seconds; the window stays usable)"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 6, 0);
  layout->addWidget(line_, 1);
  layout->addWidget(measure_);
  connect(measure_, &QPushButton::clicked, this, &MeasuredLatencyBar::measureRequested);
  reset({});
}

void MeasuredLatencyBar::reset(const QString& backend, const QString& why) {
  measured_ = false;
  measuring_ = false;
  measure_->setEnabled(!backend.isEmpty());
  line_->setText(backend.isEmpty() ? tr("<i>measured: no device to time on%1</i>").arg(why.isEmpty() ? QString() : ": " + why.toHtmlEscaped())
                                   : tr("<i>measured: not yet — Time end to end runs both graphs on %1</i>").arg(backend.toHtmlEscaped()));
}

void MeasuredLatencyBar::setMeasuring() {
  measured_ = false;
  measuring_ = true;
  measure_->setEnabled(false);
  line_->setText(tr("<i>measured: timing both graphs end to end…</i>"));
}

void MeasuredLatencyBar::setMeasured(const EndToEndComparison& c, const QColor& faster, const QColor& slower) {
  measured_ = true;
  measuring_ = false;
  measure_->setEnabled(true);
  QString speedup = QString::fromStdString(c.describeSpeedup()).toHtmlEscaped();
  if (c.speedup.lowPct > 0 || c.speedup.highPct < 0)
    speedup = QStringLiteral("<span style='color:%1'>%2</span>").arg((c.speedup.lowPct > 0 ? faster : slower).name(), speedup);
  line_->setText(tr("measured %1 → %2 ms &nbsp;speedup <b>%3</b> &nbsp;<small>(end to end on %4, medians)</small>")
                     .arg(c.originalMs, 0, 'f', 4)
                     .arg(c.candidateMs, 0, 'f', 4)
                     .arg(speedup)
                     .arg(QString::fromStdString(c.device).toHtmlEscaped()));
  line_->setToolTip(QString::fromStdString(c.method()));
}

void MeasuredLatencyBar::setFailed(const QString& error) {
  measured_ = false;
  measuring_ = false;
  measure_->setEnabled(true);
  line_->setText(tr("<i>measured: could not time the graphs: %1</i>").arg(error.toHtmlEscaped()));
}

QString MeasuredLatencyBar::text() const { return line_->text(); }

} // namespace tessera::views
