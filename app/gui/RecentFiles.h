// File ▸ Open Recent: the last ten models and sessions opened, kept in the settings; the menu is
// filled when it opens (a file since removed is listed disabled) and asks for a path to open.
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace tessera::gui {

class RecentFiles : public QObject {
  Q_OBJECT
public:
  // `menu` is filled each time it is about to show. Nothing is remembered unless `persist`.
  RecentFiles(QMenu* menu, bool persist, QObject* parent = nullptr);

  void remember(const QString& path);
  QStringList paths() const;

signals:
  void openRequested(const QString& path);

private:
  void fillMenu();

  QMenu* menu_;
  bool persist_;
};

} // namespace tessera::gui
