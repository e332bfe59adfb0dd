#include "CommandLine.h"

#include "RunSettings.h"

#include <QCommandLineParser>

namespace tessera::gui {

const QStringList& viewNames() {
  static const QStringList names = {QStringLiteral("graph"), QStringLiteral("egraph"), QStringLiteral("mcts"),
                                    QStringLiteral("compare")};
  return names;
}

CommandLine parseCommandLine(const QStringList& arguments) {
  CommandLine result;
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Tessera: explore and optimise the computation graph of a neural network"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("An ONNX model or a .tsession file"), QStringLiteral("[MODEL.onnx | SESSION.tsession]"));
  QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Start a search with STRATEGY (greedy, taso, eqsat or mcts) once the model or session is open"), QStringLiteral("STRATEGY"));
  QCommandLineOption view(QStringLiteral("view"), QStringLiteral("View to show: graph, egraph, mcts or compare"), QStringLiteral("VIEW"), QStringLiteral("graph"));
  QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Grab the window to PNG (and PNG.json), then exit"), QStringLiteral("PNG"));
  QCommandLineOption after(QStringLiteral("after"), QStringLiteral("Seconds to wait before the screenshot"), QStringLiteral("SECONDS"), QStringLiteral("3"));
  parser.addOptions({run, view, screenshot, after});
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
    result.error = QStringLiteral("unknown strategy '%1' (expected greedy, taso, eqsat or mcts)").arg(result.run);
    return result;
  }
  result.view = parser.value(view);
  if (!viewNames().contains(result.view)) {
    result.error = QStringLiteral("unknown view '%1' (expected %2)").arg(result.view, viewNames().join(QStringLiteral(", ")));
    return result;
  }
  result.screenshot = parser.value(screenshot);
  bool ok = false;
  result.afterSeconds = parser.value(after).toDouble(&ok);
  if (!ok || result.afterSeconds < 0) {
    result.error = QStringLiteral("--after needs a number of seconds, got '%1'").arg(parser.value(after));
    return result;
  }
  return result;
}

} // namespace tessera::gui
