#include "RecentFiles.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace tessera::gui {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
} // namespace

RecentFiles::RecentFiles(QMenu* menu, bool persist, QObject* parent) : QObject(parent), menu_(menu), persist_(persist) {
  connect(menu_, &QMenu::aboutToShow, this, &RecentFiles::fillMenu);
}

QStringList RecentFiles::paths() const { return QSettings().value(QLatin1String(kRecentKey)).toStringList(); }

void RecentFiles::remember(const QString& path) {
  if (!persist_) return;
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QLatin1String(kRecentKey), recent);
}

void RecentFiles::fillMenu() {
  menu_->clear();
  const QStringList recent = paths();
  for (const QString& path : recent) {
    QAction* action = menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); });
    action->setToolTip(path);
    action->setEnabled(QFileInfo::exists(path));
  }
  if (recent.isEmpty()) menu_->addAction(tr("(none)"))->setEnabled(false);
  menu_->addSeparator();
  menu_->addAction(tr("Clear"), this, [] { QSettings().remove(QLatin1String(kRecentKey)); });
}

} // namespace tessera::gui
