#include "live/ReportLoading.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>

namespace tessera::views {

QString reportSeriesLabel(const ReportRun& run, const QString& group) {
  if (run.seed) return QObject::tr("%1 · seed %2").arg(group).arg(*run.seed);
  return QObject::tr("%1 · %2").arg(group, QFileInfo(QString::fromStdString(run.path)).fileName());
}

QStringList askForReports(QWidget* parent, const QString& kinds) {
  return QFileDialog::getOpenFileNames(parent, QObject::tr("Add training reports of %1").arg(kinds), QString(),
                                       QObject::tr("Training reports (*.json);;All files (*)"));
}

QLabel* makeReportErrorLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setStyleSheet(QStringLiteral("color: #c0392b;"));
  label->hide();
  return label;
}

void showReportErrors(QLabel* label, const QStringList& errors) {
  label->setVisible(!errors.isEmpty());
  label->setText(errors.isEmpty() ? QString() : QObject::tr("Not shown: %1").arg(errors.join(QStringLiteral("\n"))));
}

} // namespace tessera::views
