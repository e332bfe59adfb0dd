// The GUI's command line, as DESIGN.md fixes it:
//   tessera [MODEL.onnx | SESSION.tsession] [--run STRATEGY] [--view {graph,egraph,mcts,compare,training,tuning}]
//           [--screenshot PNG --after SECONDS] [--training-report JSON]... [--pace MS]
//           [--tuning-db FILE] [--tune WORKLOAD [--trials N]] [--input-shape NAME=AxBxC]... [--dim NAME=VALUE]...
// and, for the run, the CLI's own options: [--cost SPEC] [--node-limit N] [--k-multi K] [--param NAME=VALUE]...
#pragma once

#include "RunSettings.h"

#include "onnx/ShapeBindings.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>

namespace tessera::gui {

struct CommandLine {
  QString file;
  QString run;          // strategy to start once the model is open
  QString view = "graph";
  QString screenshot;   // PNG path; empty: interactive
  double afterSeconds = 3;
  // Run settings over the run panel's (as `tessera-cli optimize` takes them); unset: the panel's.
  std::optional<size_t> nodeLimit;
  std::optional<int> multiIterations;
  std::optional<std::string> costSpec; // --cost SPEC
  std::map<std::string, std::string> parameters;
  QStringList trainingReports; // shown in the Training view instead of the shipped agent's report
  std::optional<int> paceMs;   // the run panel's pace (nearest listed)
  QString tuningDatabase;      // shown in the Tuning view (and the records of --tune go there)
  QString tuneWorkload;        // tuned in the Tuning view, as `tessera-cli tune WORKLOAD`
  QString sipReport;           // shown in the SIP view (`tessera-cli sip --json`)
  QString jobsWorkDir;         // --jobs: the launch whose shards the Jobs panel shows (a tessera-cli --work-dir)
  int tuneTrials = 32;
  bool viewGiven = false;      // --view was on the command line (else --tune or --tuning-db show the Tuning view)
  QString guide;               // --guide: the user guide page to open ("view": the page of the view shown)
  onnx_io::ShapeBindings shapes; // the model's open input sizes (--input-shape, --dim); the open dialog asks for the rest
  QString error;        // set when the arguments cannot be used; then exit with status 2
};

const QStringList& viewNames(); // graph, egraph, mcts, compare, training, tuning, sip

// `arguments` includes the program name, as QCoreApplication::arguments() gives it.
CommandLine parseCommandLine(const QStringList& arguments);
// The command line's run options over `settings`.
void applyRunOptions(const CommandLine& command, RunSettings& settings);

} // namespace tessera::gui
