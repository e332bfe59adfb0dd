// The GUI's command line, as DESIGN.md fixes it:
//   tessera [MODEL.onnx | SESSION.tsession] [--run STRATEGY] [--view {graph,egraph,mcts,compare}]
//           [--screenshot PNG --after SECONDS]
#pragma once

#include <QString>
#include <QStringList>

namespace tessera::gui {

struct CommandLine {
  QString file;
  QString run;          // strategy to start once the model is open
  QString view = "graph";
  QString screenshot;   // PNG path; empty: interactive
  double afterSeconds = 3;
  QString error;        // set when the arguments cannot be used; then exit with status 2
};

const QStringList& viewNames(); // graph, egraph, mcts, compare

// `arguments` includes the program name, as QCoreApplication::arguments() gives it.
CommandLine parseCommandLine(const QStringList& arguments);

} // namespace tessera::gui
