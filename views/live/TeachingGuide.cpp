#include "TeachingGuide.h"

#include <QObject>

namespace tessera::views {

QString teachingSampleFileName() { return QStringLiteral("phase_ordering.onnx"); }

QString teachingGuideHtml() {
  return QObject::tr(
      "<h3>The phase-ordering problem</h3>"
      "<p>This model computes <i>x&middot;W2 + (x&middot;W1 + y)</i>. The fastest equivalent multiplies once, "
      "<i>x&middot;(W1 + W2) + y</i>, with <i>W1 + W2</i> computed ahead of time from the weights. But the "
      "distributive rule only matches when both products sit in one sum, and reassociating the sum first "
      "changes nothing in cost.</p>"
      "<ol>"
      "<li>Run <b>greedy</b>. It takes a rewrite only when the cost drops right away, so it fuses each product "
      "with its add into a Gemm and stops there (about 46 % faster; watch the best-cost chart flatten).</li>"
      "<li>Run <b>eqsat</b>. Equality saturation keeps every form side by side: in the e-graph view, filter by "
      "the reassociation rules (tensat-s024, tensat-s028) and then by the distributive rule (tensat-s031) to see "
      "both sums in one e-class. Extraction picks the single product (about 73 % faster).</li>"
      "<li>Run <b>mcts</b>. The tree view shows the search committing a reassociation, a step that gains "
      "nothing by itself, because the distributive step after it pays back: select the committed nodes and "
      "compare their mean values with the alternatives.</li>"
      "<li>Select a node of the optimised graph and open <b>Why this rewrite</b>: the chain goes back through "
      "the distributive rule to the reassociation, with the best cost before and after each step.</li>"
      "</ol>"
      "<p>The bundled session already holds one run of each. Select a candidate in the <b>Candidates</b> dock to "
      "replay the run that produced it: drag the <b>Timeline</b> to any moment and the e-graph, the tree and the "
      "rules follow; the chart overlays the best-cost curves of the three runs. Your own runs are added to the "
      "same session.</p>");
}

} // namespace tessera::views
