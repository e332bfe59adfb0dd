#include "TeachingSample.h"

#include "SessionDocument.h"

#include "live/TeachingGuide.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace tessera::gui {

QString bundledTeachingSession() {
  const QString name = QFileInfo(views::teachingSampleFileName()).completeBaseName() + QStringLiteral(".tsession");
  // An installation keeps the samples beside bin/; a build tree finds them in its source tree.
  const QStringList folders = {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/tessera/samples/teaching"),
                               QStringLiteral(TESSERA_SAMPLES_DIR "/teaching")};
  for (const QString& folder : folders)
    if (QFileInfo::exists(folder + QLatin1Char('/') + name)) return QFileInfo(folder + QLatin1Char('/') + name).canonicalFilePath();
  return {};
}

QString teachingSessionCopy(const QString& sessionDirectory, QString* error) {
  const QString bundled = bundledTeachingSession();
  if (bundled.isEmpty()) {
    *error = QCoreApplication::translate("TeachingSample", "the bundled teaching session (samples/teaching/phase_ordering.tsession) was not found");
    return {};
  }
  const QString copy = SessionDocument::defaultPathFor(views::teachingSampleFileName(), sessionDirectory);
  if (QFileInfo::exists(copy)) return copy;
  QDir().mkpath(QFileInfo(copy).absolutePath());
  if (!QFile::copy(bundled, copy)) {
    *error = QCoreApplication::translate("TeachingSample", "cannot copy %1 to %2").arg(bundled, copy);
    return {};
  }
  // The bundled file may be read-only (an installation); the copy is the user's to write.
  QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
  return copy;
}

bool isTeachingSample(const QString& path) {
  return QFileInfo(path).completeBaseName() == QFileInfo(views::teachingSampleFileName()).completeBaseName();
}

} // namespace tessera::gui
