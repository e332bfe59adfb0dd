#include "CommandLine.h"

#include "RunSettings.h"

#include "support/Error.h"

#include <QCommandLineParser>

namespace tessera::gui {

const QStringList& viewNames() {
  static const QStringList names = {QStringLiteral("graph"), QStringLiteral("egraph"), QStringLiteral("mcts"),
                                    QStringLiteral("compare"), QStringLiteral("training"), QStringLiteral("dream"), QStringLiteral("tuning"),
                                    QStringLiteral("sip")};
  return names;
}

CommandLine parseCommandLine(const QStringList& arguments) {
  CommandLine result;
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Tessera: explore and optimise the computation graph of a neural network"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("An ONNX model or a .tsession file"), QStringLiteral("[MODEL.onnx | SESSION.tsession]"));
  QCommandLineOption run(QStringLiteral("run"), QString::fromStdString("Start a search with STRATEGY (" + strategyListText() + ") once the model or session is open"), QStringLiteral("STRATEGY"));
  QCommandLineOption cost(QStringLiteral("cost"), QString::fromStdString("Cost model of the run and the views: " + costSpecHelp()), QStringLiteral("SPEC"));
  QCommandLineOption view(QStringLiteral("view"), QStringLiteral("View to show: graph, egraph, mcts, compare, training, dream, tuning or sip"), QStringLiteral("VIEW"), QStringLiteral("graph"));
  QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Grab the window to PNG (and PNG.json), then exit"), QStringLiteral("PNG"));
  QCommandLineOption after(QStringLiteral("after"), QStringLiteral("Seconds to wait before the screenshot"), QStringLiteral("SECONDS"), QStringLiteral("3"));
  QCommandLineOption nodeLimit(QStringLiteral("node-limit"), QStringLiteral("E-node limit of the run (ops for taso and greedy); 0: the strategy's default"), QStringLiteral("N"));
  QCommandLineOption multi(QStringLiteral("k-multi"), QStringLiteral("Iterations that apply multi-pattern rules (eqsat)"), QStringLiteral("K"));
  QCommandLineOption param(QStringLiteral("param"), QStringLiteral("Strategy parameter NAME=VALUE (repeatable), e.g. tensat=1"), QStringLiteral("NAME=VALUE"));
  QCommandLineOption trainingReport(QStringLiteral("training-report"),
                                    QStringLiteral("An RL training report (tessera-cli rl train --json) for the Training view, "
                                                   "instead of the shipped agent's (repeatable)"),
                                    QStringLiteral("JSON"));
  QCommandLineOption pace(QStringLiteral("pace"),
                          QStringLiteral("Least milliseconds between two steps of the run (the run panel's teaching pace; 0: full speed)"),
                          QStringLiteral("MS"));
  QCommandLineOption tuningDb(QStringLiteral("tuning-db"),
                              QStringLiteral("A tuning database (tessera-cli tune --db) for the Tuning view: its records per workload; "
                                             "--tune adds its records to it"),
                              QStringLiteral("FILE"));
  QCommandLineOption tune(QStringLiteral("tune"),
                          QStringLiteral("Tune this kernel in the Tuning view, as tessera-cli tune does (matmul:MxNxK, bmm:BxMxNxK or "
                                         "conv2d:NxCxHxW,OxCxKhxKw[,sS][,pP][,bias][,relu])"),
                          QStringLiteral("WORKLOAD"));
  QCommandLineOption trials(QStringLiteral("trials"), QStringLiteral("Candidates --tune measures"), QStringLiteral("N"), QStringLiteral("32"));
  QCommandLineOption inputShape(QStringLiteral("input-shape"),
                                QStringLiteral("The whole shape of the model's graph input NAME, for a model whose inputs have "
                                               "symbolic or unknown sizes (repeatable; as tessera-cli takes it)"),
                                QStringLiteral("NAME=AxBxC"));
  QCommandLineOption dim(QStringLiteral("dim"),
                         QStringLiteral("The size of the model's symbolic dimension NAME (a dim_param) on every input that has it "
                                        "(repeatable). Sizes the command line leaves open are asked for when the model opens"),
                         QStringLiteral("NAME=VALUE"));
  QCommandLineOption guide(QStringLiteral("guide"),
                           QStringLiteral("Open the user guide at PAGE (a page of resources/doc, e.g. index.md), or at the page of "
                                          "the view shown (view), as Help ▸ User Guide and Help ▸ This View do"),
                           QStringLiteral("PAGE"));
  QCommandLineOption sipReport(QStringLiteral("sip-report"),
                               QStringLiteral("A SIP report (tessera-cli sip --json) for the SIP view"), QStringLiteral("JSON"));
  parser.addOptions({run, view, screenshot, after, nodeLimit, multi, param, trainingReport, pace, tuningDb, tune, trials, inputShape, dim, guide});
  parser.addOption(sipReport);
  QCommandLineOption jobs(QStringLiteral("jobs"),
                          QStringLiteral("Show the shards of the launch in DIR (the --work-dir of tessera-cli … --launcher) in the Jobs panel"),
                          QStringLiteral("DIR"));
  parser.addOption(jobs);
  parser.addOption(cost);
  if (!parser.parse(arguments)) {
    result.error = parser.errorText();
    return result;
  }
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    result.error = QStringLiteral("expected at most one file, got %1").arg(positional.join(QLatin1Char(' ')));
    return result;
  }
  if (!positional.isEmpty()) result.file = positional.front();
  result.run = parser.value(run);
  if (!result.run.isEmpty() && !isKnownStrategy(result.run.toStdString())) {
    result.error = QStringLiteral("unknown strategy '%1' (expected %2)").arg(result.run, QString::fromStdString(strategyListText()));
    return result;
  }
  result.view = parser.value(view);
  result.viewGiven = parser.isSet(view);
  if (!viewNames().contains(result.view)) {
    result.error = QStringLiteral("unknown view '%1' (expected %2)").arg(result.view, viewNames().join(QStringLiteral(", ")));
    return result;
  }
  result.trainingReports = parser.values(trainingReport);
  result.screenshot = parser.value(screenshot);
  bool ok = false;
  result.afterSeconds = parser.value(after).toDouble(&ok);
  if (!ok || result.afterSeconds < 0) {
    result.error = QStringLiteral("--after needs a number of seconds, got '%1'").arg(parser.value(after));
    return result;
  }
  if (parser.isSet(cost)) result.costSpec = parser.value(cost).toStdString();
  if (parser.isSet(nodeLimit)) {
    const qulonglong limit = parser.value(nodeLimit).toULongLong(&ok);
    if (!ok) {
      result.error = QStringLiteral("--node-limit needs a whole number, got '%1'").arg(parser.value(nodeLimit));
      return result;
    }
    result.nodeLimit = static_cast<size_t>(limit);
  }
  // An option given as a count (0 or more) of `unit`; false, with result.error set, when it is not.
  auto readCount = [&](const QCommandLineOption& option, const QString& unit, std::optional<int>& target) {
    if (!parser.isSet(option)) return true;
    const int count = parser.value(option).toInt(&ok);
    if (!ok || count < 0) {
      result.error = QStringLiteral("--%1 needs a number of %2, got '%3'").arg(option.names().constFirst(), unit, parser.value(option));
      return false;
    }
    target = count;
    return true;
  };
  if (!readCount(multi, QStringLiteral("iterations"), result.multiIterations)) return result;
  if (!readCount(pace, QStringLiteral("milliseconds"), result.paceMs)) return result;
  result.guide = parser.value(guide);
  result.tuningDatabase = parser.value(tuningDb);
  result.sipReport = parser.value(sipReport);
  result.jobsWorkDir = parser.value(jobs);
  result.tuneWorkload = parser.value(tune);
  result.tuneTrials = parser.value(trials).toInt(&ok);
  if (!ok || result.tuneTrials < 1) {
    result.error = QStringLiteral("--trials needs a number of trials (1 or more), got '%1'").arg(parser.value(trials));
    return result;
  }
  try {
    for (const QString& text : parser.values(inputShape)) onnx_io::parseInputShapeBinding(text.toStdString(), result.shapes);
    for (const QString& text : parser.values(dim)) onnx_io::parseDimBinding(text.toStdString(), result.shapes);
  } catch (const Error& e) {
    result.error = QString::fromUtf8(e.what());
    return result;
  }
  std::vector<std::string> pairs;
  for (const QString& pair : parser.values(param)) pairs.push_back(pair.toStdString());
  try {
    result.parameters = parseRunParameters(pairs);
  } catch (const Error& e) {
    result.error = QStringLiteral("--param: %1").arg(QString::fromUtf8(e.what()));
    return result;
  }
  return result;
}

void applyRunOptions(const CommandLine& command, RunSettings& settings) {
  if (command.costSpec) settings.costSpec = *command.costSpec;
  if (command.nodeLimit) settings.search.nodeLimit = *command.nodeLimit;
  if (command.multiIterations) settings.search.multiIterations = *command.multiIterations;
  for (const auto& [name, value] : command.parameters) settings.search.parameters[name] = value;
}

} // namespace tessera::gui
