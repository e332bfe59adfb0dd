// The run dock: strategy, cost model, limits, k_multi, extraction method, seed and the strategy's
// own parameters (NAME=VALUE, as the CLI's --param takes them); the teaching pace of
// live runs and replays; Start, Pause/Resume, Step and Stop; a progress bar and the last progress line.
#pragma once

#include "CostModels.h"
#include "RunSettings.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSettings;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace tessera::gui {

// A run's strategy parameters as NAME=VALUE items, by name: how the panel, the settings file and
// the log show them.
QStringList parameterPairs(const std::map<std::string, std::string>& parameters);

class RunPanel : public QWidget {
  Q_OBJECT

public:
  explicit RunPanel(QWidget* parent = nullptr);

  // Throws tessera::Error when the parameters field holds something other than NAME=VALUE pairs.
  RunSettings settings() const;
  void setSettings(const RunSettings& settings);
  // The settings and pace as the settings file keeps them (run/…); a malformed entry is skipped.
  void restoreSettings(const QSettings& file);
  void saveSettings(QSettings& file) const;
  std::string costSpec() const;
  bool selectStrategy(const std::string& name); // false when it is unknown
  // Sets one NAME=VALUE of the parameters field, keeping the others (the agent's checkpoint=).
  void setParameter(const std::string& name, const std::string& value);
  // The pace chosen for live runs and replays: the least time between two steps, 0 for full speed.
  int stepIntervalMs() const;
  void setStepIntervalMs(int milliseconds); // the nearest listed pace

  void setModelLoaded(bool loaded);
  void setRunning(bool running);
  void setPaused(bool paused);
  void setProgress(int percent, const QString& line); // percent < 0 leaves the bar as it is
  void setOutcome(const QString& text);
  QString outcome() const; // as shown, rich text
  // Lists the plugins' measured backends once they have loaded on a worker (costChoicesLoaded);
  // the first call starts it, later ones do nothing. Only the analytic models are listed before.
  void discoverMeasuredBackends();

signals:
  void startRequested();
  void stopRequested();
  void pauseRequested();
  void resumeRequested();
  void stepRequested();
  void costModelChanged(const QString& spec);
  void stepIntervalChanged(int milliseconds);
  // The measured backends of the plugins are listed (they load off the UI thread).
  void costChoicesLoaded();

private:
  void updateButtons();
  void addCostChoices(const std::vector<CostChoice>& choices);

  QComboBox* strategy_;
  QComboBox* cost_;
  QSpinBox* nodeLimit_;
  QSpinBox* iterationLimit_;
  QSpinBox* multiIterations_;
  QLineEdit* parameters_;
  QToolButton* chooseAgent_; // checkpoint= of the xrlflow strategy
  QDoubleSpinBox* timeLimit_;
  QComboBox* extract_;
  QSpinBox* seed_;
  QCheckBox* verify_;
  QComboBox* pace_;
  QPushButton* start_;
  QPushButton* pause_;
  QPushButton* step_;
  QPushButton* stop_;
  QProgressBar* progress_;
  QLabel* line_;
  QLabel* outcome_;
  bool modelLoaded_ = false;
  bool running_ = false;
  bool paused_ = false;
  QString wantedCost_; // a cost spec to select once its backend is listed
  bool discoveryStarted_ = false;
};

} // namespace tessera::gui
