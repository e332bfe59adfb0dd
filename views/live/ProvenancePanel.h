// "Why this rewrite": for an e-node (from the e-graph view), a node of a candidate graph (its
// NodeOrigin, from the graph or compare view) or a committed step, shows the chain of rewrites that
// produced it, the step that committed it with the MCTS statistics of the choice and of the
// alternatives, and the best cost before and after that step.
#pragma once

#include "replay/Explanation.h"

#include <QWidget>

class QTextBrowser;

namespace tessera {
struct NodeOrigin;
}

namespace tessera::views {

class LiveRun;

class ProvenancePanel : public QWidget {
  Q_OBJECT
public:
  // `run` supplies the event log and the current state; not owned, may be null until setRun.
  explicit ProvenancePanel(const LiveRun* run = nullptr, QWidget* parent = nullptr);
  void setRun(const LiveRun* run);
  QString text() const;  // plain text of what is shown, for tests
  QString html() const;

public slots:
  void explainENode(tessera::MirrorNodeId node);
  // A node of a candidate graph: its origin from Candidate::origins.
  void explainOrigin(const tessera::NodeOrigin& origin);
  void explainStep(int step);
  // Re-explains the current subject against the new state (a seek may make it not exist yet).
  void showState(const tessera::ReplayState& state);

private:
  enum class Subject { None, ENode, Origin, Step };
  void render();
  QString stepHtml(int step, const std::string& rule) const;

  const LiveRun* run_;
  Subject subject_ = Subject::None;
  MirrorNodeId node_ = 0;
  std::string originRule_; // of a candidate node (NodeOrigin)
  int originStep_ = 0;
  int step_ = 0;
  QTextBrowser* browser_;
};

} // namespace tessera::views
