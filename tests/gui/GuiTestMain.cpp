// main() for the GUI tests: a QApplication on the offscreen platform around GoogleTest.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  // ctest sets QT_QPA_PLATFORM=offscreen; gtest_discover_tests runs this binary at build time too.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true); // QSettings written by tests never touch the user's
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("TesseraTests"));
  QCoreApplication::setApplicationName(QStringLiteral("tessera-gui-tests"));
#ifdef TESSERA_TEST_PLUGIN_DIR
  // The build's backend plugins, and a cost cache of the tests' own for what they measure.
  qputenv("TESSERA_PLUGIN_PATH", TESSERA_TEST_PLUGIN_DIR);
  const QString costCache = QDir::temp().filePath(QStringLiteral("tessera-gui-tests-%1.sqlite").arg(QCoreApplication::applicationPid()));
  qputenv("TESSERA_COST_CACHE", costCache.toUtf8());
#endif
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
#ifdef TESSERA_TEST_PLUGIN_DIR
  for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) QFile::remove(costCache + suffix);
#endif
  return failed;
}
