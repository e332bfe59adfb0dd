// main() for the GUI tests: a QApplication on the offscreen platform around GoogleTest.
#include <QApplication>
#include <QStandardPaths>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  // ctest sets QT_QPA_PLATFORM=offscreen; gtest_discover_tests runs this binary at build time too.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true); // QSettings written by tests never touch the user's
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("TesseraTests"));
  QCoreApplication::setApplicationName(QStringLiteral("tessera-gui-tests"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
