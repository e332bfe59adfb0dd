#include "search/Candidate.h"

#include "ProvenancePanel.h"

#include "LiveRun.h"
#include "SynthesisedRuleOrigin.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace tessera::views {

namespace {
QString ms(std::optional<double> value) { return value ? QString::number(*value, 'f', 4) + QStringLiteral(" ms") : QStringLiteral("—"); }
QString q(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }
} // namespace

ProvenancePanel::ProvenancePanel(const LiveRun* run, QWidget* parent) : QWidget(parent), run_(run) {
  browser_ = new QTextBrowser(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(browser_);
  render();
}

void ProvenancePanel::setRun(const LiveRun* run) {
  run_ = run;
  render();
}

QString ProvenancePanel::text() const { return browser_->toPlainText(); }
QString ProvenancePanel::html() const { return browser_->toHtml(); }

void ProvenancePanel::explainENode(MirrorNodeId node) {
  subject_ = Subject::ENode;
  node_ = node;
  render();
}

void ProvenancePanel::explainOrigin(const NodeOrigin& origin) {
  subject_ = Subject::Origin;
  originRule_ = origin.rule;
  originStep_ = origin.step;
  render();
}

void ProvenancePanel::explainStep(int step) {
  subject_ = Subject::Step;
  step_ = step;
  render();
}

void ProvenancePanel::showState(const ReplayState&) {
  if (subject_ != Subject::None) render();
}

QString ProvenancePanel::stepHtml(int step, const std::string& rule) const {
  const ReplayState& state = run_->state();
  const StepExplanation why = tessera::explainStep(state, run_->replay().events(), step, rule);
  QString html = tr("<h3>Step %1</h3>").arg(step);
  if (why.commit) {
    const StepCommitted& c = why.commit->commit;
    html += tr("<p>Committed <b>%1</b> at %2 s; the e-graph then had %3 e-nodes in %4 e-classes.</p>")
                .arg(q(c.action))
                .arg(why.commit->seconds, 0, 'f', 2)
                .arg(c.enodes)
                .arg(c.eclasses);
  } else {
    html += tr("<p>No commit of this step is in the log up to this moment.</p>");
  }
  html += tr("<p>%1 rewrites applied at this step").arg(why.applications);
  if (!rule.empty()) html += tr(", %1 of them by %2").arg(why.applicationsOfRule).arg(q(rule));
  html += QStringLiteral(".</p>");
  html += tr("<p>Best cost before: <b>%1</b>, after: <b>%2</b>").arg(ms(why.bestBefore), ms(why.bestAfter));
  if (why.bestBefore && why.bestAfter && *why.bestBefore > 0)
    html += tr(" (%1 %)").arg((*why.bestAfter - *why.bestBefore) / *why.bestBefore * 100, 0, 'f', 2);
  html += QStringLiteral("</p>");
  if (why.committedNode) {
    const MirrorMctsNode& n = *why.committedNode;
    html += tr("<p>MCTS chose node %1: %2 visits, Q %3, mean value %4, last reward %5.</p>")
                .arg(n.id)
                .arg(n.visits)
                .arg(n.totalValue, 0, 'g', 4)
                .arg(n.meanValue(), 0, 'g', 4)
                .arg(n.lastReward, 0, 'g', 4);
    if (!why.alternatives.empty()) {
      html += tr("<table border=1 cellspacing=0 cellpadding=3><tr><th>action</th><th>visits</th><th>mean value</th></tr>");
      size_t shown = 0;
      for (const Alternative& a : why.alternatives) {
        if (shown++ == 8) break;
        html += QStringLiteral("<tr><td>%1%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                    .arg(a.chosen ? QStringLiteral("<b>▶ ") : QString(), q(a.rule) + (a.chosen ? QStringLiteral("</b>") : QString()))
                    .arg(a.visits)
                    .arg(a.meanValue, 0, 'g', 4);
      }
      html += QStringLiteral("</table>");
      if (why.alternatives.size() > 8) html += tr("<p>%1 more alternatives not shown.</p>").arg(why.alternatives.size() - 8);
    }
  }
  return html;
}

void ProvenancePanel::render() {
  if (!run_ || subject_ == Subject::None) {
    browser_->setHtml(tr("<p>Select an e-node, a node of a candidate graph or an MCTS node to see why it is there.</p>"));
    return;
  }
  const ReplayState& state = run_->state();
  QString html;
  if (subject_ == Subject::Step) {
    browser_->setHtml(stepHtml(step_, {}));
    return;
  }
  std::optional<MirrorNodeId> node;
  std::string rule;
  int step = kOriginalStep;
  if (subject_ == Subject::ENode) {
    if (node_ >= state.egraph.numNodes()) {
      browser_->setHtml(tr("<p>e-node %1 does not exist yet at this moment of the run.</p>").arg(node_));
      return;
    }
    node = node_;
    const MirrorNode& n = state.egraph.nodes()[node_];
    rule = state.egraph.ruleOf(n);
    step = n.step;
    html += tr("<h3>e-node %1: %2 in class c%3</h3>")
                .arg(node_)
                .arg(QString::fromUtf8(opName(n.node.op).data(), static_cast<qsizetype>(opName(n.node.op).size())))
                .arg(state.egraph.find(n.addedTo));
  } else {
    rule = originRule_;
    step = originStep_;
    html += tr("<h3>Candidate node from %1</h3>").arg(rule.empty() ? tr("the original model") : q(rule) + tr(" at step %1").arg(step));
    // The e-nodes that rewrite created; the first stands for the chain.
    for (MirrorNodeId id = 0; id < state.egraph.numNodes() && !rule.empty(); ++id) {
      const MirrorNode& n = state.egraph.nodes()[id];
      if (n.step == step && state.egraph.ruleOf(n) == rule) {
        node = id;
        break;
      }
    }
  }
  if (rule.empty()) {
    html += tr("<p>From the original model: no rewrite produced it.</p>");
    browser_->setHtml(html);
    return;
  }
  if (node) {
    const auto chain = rewriteChain(state, run_->replay().events(), *node);
    html += tr("<p><b>Chain of rewrites</b> (newest first):</p><ol>");
    for (const RewriteLink& link : chain) {
      if (link.rule.empty())
        html += tr("<li>e-node %1 from the original model</li>").arg(link.node);
      else
        html += tr("<li><b>%1</b> at step %2 created e-node %3 (event %4)</li>").arg(q(link.rule)).arg(link.step).arg(link.node).arg(link.sequence);
    }
    html += QStringLiteral("</ol>");
  } else {
    html += tr("<p>The log up to this moment has no e-node from this rewrite.</p>");
  }
  // A synthesised rule names the enumerated pattern pair it was found from.
  if (QString origin = synthesisedRuleOrigin(QString::fromStdString(rule)); !origin.isEmpty())
    html += tr("<p><b>%1</b> was synthesised by <code>rules synthesize</code> (TASO's generator) from %2.</p>")
                .arg(q(rule), origin.toHtmlEscaped());
  html += stepHtml(step, rule);
  browser_->setHtml(html);
}

} // namespace tessera::views
