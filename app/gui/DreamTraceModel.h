// The dream view's table: one row per step of a dream trace (rlflow/RlflowDreamTrace.h), the
// action taken, the real reward beside the dreamt (open-loop) and one-step predictions, the valid
// actions the real state had beside those the dream's mask predicted, and whether the dream's mask
// offered the action at all. Rows where it did not (imagination no longer follows reality) are
// tinted. Built only with libtorch (the dream needs the agent).
#pragma once

#include "rlflow/RlflowDreamTrace.h"

#include <QAbstractTableModel>

namespace tessera::gui {

class DreamTraceModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Step, Action, RealReward, DreamtReward, OneStepReward, RealActions, DreamtActions, MaskAgreement, InDream, Done, Columns };

  explicit DreamTraceModel(QObject* parent = nullptr);

  void setTrace(DreamTrace trace);
  void appendStep(const DreamTraceStep& step); // a step of a trace still being made
  const DreamTrace& trace() const { return trace_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  DreamTrace trace_;
};

} // namespace tessera::gui
