#include "TeachingGuide.h"

#include <QObject>

namespace tessera::views {

QString teachingSampleFileName() { return QStringLiteral("phase_ordering.onnx"); }

QString teachingGuideHtml() {
  return QObject::tr(
      "<h3>The phase-ordering problem</h3>"
      "<p>This model has two branches over one input: a 1&times;1 and a 3&times;3 convolution, each followed by "
      "relu, joined by a concat. The fastest equivalent runs <b>one</b> convolution for both branches "
      "(their weights concatenated), but only after the 1&times;1 kernel has been <i>enlarged</i> to 3&times;3 "
      "&mdash; a rewrite that on its own makes that branch slower.</p>"
      "<ol>"
      "<li>Run <b>greedy</b>. It takes a rewrite only when the cost drops right away, so it never enlarges the "
      "kernel and stops at the original cost (watch the flat line in the best-cost chart).</li>"
      "<li>Run <b>eqsat</b>. Equality saturation keeps every rewrite side by side in the e-graph: in the e-graph "
      "view, filter by the rule that enlarges kernels, then by the one that merges convolutions, and see both "
      "forms of the branch in one e-class. Extraction then picks the merged convolution.</li>"
      "<li>Run <b>mcts</b>. The tree view shows the search paying for the slower step because the step after it "
      "pays back: select the committed nodes to compare their mean values with the alternatives.</li>"
      "<li>Select a node of the optimised graph and open <b>Why this rewrite</b>: the chain goes back through "
      "the merge to the enlarge, with the best cost before and after each step.</li>"
      "</ol>"
      "<p>Drag the timeline to replay any moment of a run, and overlay the three runs in the chart.</p>");
}

} // namespace tessera::views
