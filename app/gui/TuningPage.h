// The Tuning tab: tunes one matmul or conv2d kernel (core/tune) on a thread of its own and shows,
// as it goes, the best GFLOP/s against trials next to oneDNN's, every measured candidate, and the
// trace and loop nest of the best one (or of the row chosen); or shows the records a tuning
// database holds for each workload, without tuning. Its widgets are made when the tab is first
// chosen (or a run or a database is asked for), not with the window.
#pragma once

#include "tune/TuningDatabase.h"
#include "tune/Workload.h"

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

#include <map>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;

namespace tessera::views {
class TuningChart;
class TuningRecordModel;
} // namespace tessera::views

namespace tessera::gui {

class TuningRunner;

class TuningPage : public QWidget {
  Q_OBJECT

public:
  explicit TuningPage(QWidget* parent = nullptr);

  void build(); // makes the widgets, once
  bool isBuilt() const { return chart_ != nullptr; }

  // Tunes the workload in the field (or this one, with these trials): false, with the reason in
  // the page, when the workload does not parse or a run is in flight.
  bool startTuning();
  bool startTuning(const QString& workload, int trials);
  void stopTuning();
  bool isRunning() const;
  // Reads a tuning database on a worker and lists its workloads (databaseOpened or databaseFailed
  // follows); later runs add their records to it.
  void openDatabase(const QString& path);
  void chooseDatabase(); // a file dialog, then openDatabase
  QString databasePath() const { return databasePath_; }
  // Shows the open database's records of `workload` (a key the picker lists); false when it has none.
  bool showWorkload(const QString& workload);
  bool isBusy() const; // a run or a database read in flight

  QString errorText() const;    // what the page says is wrong; empty when nothing is
  QString progressText() const; // the run's progress line, or what the page shows
  int recordsShown() const;     // 0 until built
  QString candidateCaption() const;

  views::TuningChart* chart() const { return chart_; }
  views::TuningRecordModel* records() const { return records_; }
  QTableView* table() const { return table_; }
  QPushButton* startButton() const { return start_; }
  QPushButton* stopButton() const { return stop_; }
  QLineEdit* workloadField() const { return workload_; }
  QComboBox* searchChoice() const { return search_; }
  QComboBox* codegenChoice() const { return codegen_; }
  QCheckBox* flushCachesChoice() const { return flushCaches_; }
  QComboBox* workloadPicker() const { return picker_; }
  QPlainTextEdit* traceText() const { return trace_; }
  QPlainTextEdit* loopNestText() const { return loopNest_; }
  TuningRunner* runner() const { return runner_; }

signals:
  void databaseOpened(const QString& path);
  void databaseFailed(const QString& message);
  void runFinished(); // the run ended (finished, stopped or failed) and Start works again
  void runFailed(const QString& message);

private:
  struct StoredRecords {
    QString error;
    std::vector<std::string> workloads;
    std::map<std::string, std::vector<tune::TuningRecord>> records;
  };
  static StoredRecords readDatabase(const QString& path);

  std::optional<tune::Workload> validatedWorkload();
  void showError(const QString& message);
  void onRunningChanged(bool running);
  void onTrial(const tune::TuningRecord& record, int trial, int trials, double bestGflops);
  void updateProgress();
  void listStoredRecords(StoredRecords stored, const QString& path, bool replaceView);
  // The trace and loop nest of the selected row, or of the best one when none is selected.
  void showCandidate();

  TuningRunner* runner_ = nullptr;
  views::TuningChart* chart_ = nullptr;
  views::TuningRecordModel* records_ = nullptr;
  QTableView* table_ = nullptr;
  QLineEdit* workload_ = nullptr;
  QSpinBox* trials_ = nullptr;
  QComboBox* search_ = nullptr;
  QComboBox* codegen_ = nullptr; // "llvm" or "c"
  QCheckBox* flushCaches_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QSpinBox* threads_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QLabel* error_ = nullptr;
  QLabel* progress_ = nullptr;
  QLabel* database_ = nullptr;
  QComboBox* picker_ = nullptr;
  QLabel* caption_ = nullptr;
  QPlainTextEdit* trace_ = nullptr;
  QPlainTextEdit* loopNest_ = nullptr;
  QTimer* clock_ = nullptr;

  QString databasePath_;
  QString previousDatabasePath_; // shown again when opening another one fails
  int readsInFlight_ = 0;
  std::map<std::string, std::vector<tune::TuningRecord>> stored_;
  // The run in flight or last run.
  QString runWorkload_;
  int runTrials_ = 0;
  int trialsDone_ = 0;
  double bestGflops_ = 0;
  std::optional<double> baselineGflops_;
  QString runStatus_; // what the run does before its first trial, or how it ended
  QElapsedTimer elapsed_;
  double runSeconds_ = 0;
};

} // namespace tessera::gui
