// The Jobs panel: the shards of a launch (tessera-cli … --launcher local|slurm --work-dir D) with
// their state, node and retries, read from the shard board the driver keeps in D and followed
// while the launch runs.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QTimer;

namespace tessera::views {
class ShardTableModel;
}

namespace tessera::gui {

class JobsPanel final : public QWidget {
  Q_OBJECT
public:
  explicit JobsPanel(QWidget* parent = nullptr);

  // Shows the launch in `workDir` and follows it; for a directory of several launches in a row
  // (launch/ShardBoard.h: launchToShow), the one its driver is at. False (errorText() says why)
  // when there is no readable shard board.
  bool openWorkDir(const QString& workDir);
  QString errorText() const { return error_; }
  views::ShardTableModel* model() const { return model_; }

signals:
  void opened(const QString& workDir);

private:
  bool refresh();
  void chooseWorkDir();

  QString workDir_, error_;
  QLabel* summary_ = nullptr;
  QTableView* table_ = nullptr;
  views::ShardTableModel* model_ = nullptr;
  QTimer* poll_ = nullptr;
};

} // namespace tessera::gui
