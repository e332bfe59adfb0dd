// The Jobs panel: a summary line, the shard table and a button to choose a work directory. The
// board is read again every second while the launch is unfinished: the driver replaces the file
// by a rename at each change, which a file watcher loses track of.
#include "JobsPanel.h"

#include "ShardTableModel.h"

#include "launch/ShardBoard.h"
#include "support/Error.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace tessera::gui {

JobsPanel::JobsPanel(QWidget* parent) : QWidget(parent) {
  summary_ = new QLabel(tr("No launch shown. Open the --work-dir of a tessera-cli command run with --launcher local or slurm."), this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* open = new QPushButton(tr("Open Work Directory…"), this);
  connect(open, &QPushButton::clicked, this, &JobsPanel::chooseWorkDir);

  model_ = new views::ShardTableModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(views::ShardTableModel::Note, QHeaderView::Stretch);

  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(open, 0, Qt::AlignTop);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(table_, 1);

  poll_ = new QTimer(this);
  poll_->setInterval(1000);
  connect(poll_, &QTimer::timeout, this, [this] { refresh(); });
}

bool JobsPanel::openWorkDir(const QString& workDir) {
  workDir_ = workDir;
  const bool read = refresh();
  if (read) emit opened(workDir);
  return read;
}

bool JobsPanel::refresh() {
  // A work directory of several launches in a row shows the one its driver is at, and is followed
  // after that one finishes, for the next may start.
  const std::string shown = launch::launchToShow(workDir_.toStdString());
  const bool series = shown != workDir_.toStdString();
  launch::ShardBoard board;
  try {
    board = launch::readShardBoard(shown);
  } catch (const Error& e) {
    error_ = QString::fromStdString(e.what());
    summary_->setText(error_);
    poll_->stop();
    return false;
  }
  error_.clear();
  size_t done = 0, running = 0, failed = 0, retries = 0;
  for (const launch::ShardProgress& shard : board.shards) {
    done += shard.state == launch::ShardState::Done;
    running += shard.state == launch::ShardState::Running;
    failed += shard.state == launch::ShardState::Failed;
    retries += static_cast<size_t>(shard.retries);
  }
  summary_->setText(tr("<b>%1</b> on <b>%2</b>: %3 of %4 shard(s) done, %5 running, %6 failed, %7 resubmission(s); %8 (as of %9)<br>%10")
                        .arg(QString::fromStdString(board.command), QString::fromStdString(board.launcher))
                        .arg(done)
                        .arg(board.shards.size())
                        .arg(running)
                        .arg(failed)
                        .arg(retries)
                        .arg(board.finished ? tr("the driver finished") : tr("the driver is at work"), QString::fromStdString(board.updated),
                             QString::fromStdString(shown).toHtmlEscaped()));
  model_->setShards(std::move(board.shards));
  if (board.finished && !series) poll_->stop();
  else if (!poll_->isActive()) poll_->start();
  return true;
}

void JobsPanel::chooseWorkDir() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Work Directory of a Launch"), workDir_);
  if (!dir.isEmpty()) openWorkDir(dir);
}

} // namespace tessera::gui
