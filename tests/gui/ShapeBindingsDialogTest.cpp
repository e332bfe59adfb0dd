// The open dialog for a model's open input sizes: one field per symbolic dimension and unnamed
// axis, prefilled from the command line, the sizes last given for the model, or the name; the main
// window shows it for such a model and opens the model with its sizes. The explorer's command line
// takes --input-shape and --dim as tessera-cli does.
#include "CommandLine.h"
#include "MainWindow.h"
#include "ShapeBindingsDialog.h"
#include "TestWindowOptions.h"

#include "onnx/OnnxImport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;

namespace {

// ppocr_mobile_v2_cls: x [p2o.DynamicDimension.0, 3, p2o.DynamicDimension.1, p2o.DynamicDimension.2].
const QString kClassifier = QStringLiteral(TESSERA_SOURCE_DIR "/samples/real/ppocr_mobile_v2_cls.onnx");

QSpinBox* fieldBox(const ShapeBindingsDialog& dialog, const QString& label) {
  for (const ShapeBindingsDialog::Field& field : dialog.fields())
    if (field.label == label) return field.box;
  return nullptr;
}

} // namespace

TEST(ShapeBindingsDialog, AsksForEachOpenDimensionPrefilledAndGivesBindings) {
  const std::vector<onnx_io::DeclaredInput> inputs = onnx_io::bindableInputs(kClassifier.toStdString());
  onnx_io::ShapeBindings given;
  given.dims["p2o.DynamicDimension.1"] = 48; // from the command line: shown, not asked
  ShapeBindingsDialog dialog(QStringLiteral("/nowhere/cls.onnx"), inputs, given);
  ASSERT_EQ(dialog.fields().size(), 2u);
  QSpinBox* batch = fieldBox(dialog, QStringLiteral("p2o.DynamicDimension.0"));
  QSpinBox* width = fieldBox(dialog, QStringLiteral("p2o.DynamicDimension.2"));
  ASSERT_TRUE(batch && width);
  EXPECT_EQ(batch->value(), 1) << "a generated name on the leading axis is taken as the batch";
  EXPECT_EQ(width->value(), 224) << "an image's width";
  width->setValue(192);
  onnx_io::ShapeBindings chosen = dialog.bindings();
  EXPECT_EQ(chosen.dims, (std::map<std::string, int64_t>{{"p2o.DynamicDimension.0", 1}, {"p2o.DynamicDimension.1", 48}, {"p2o.DynamicDimension.2", 192}}));
  // What the dialog gives opens the model.
  Graph graph = onnx_io::importOnnxFile(kClassifier.toStdString(), chosen);
  EXPECT_EQ(graph.node(graph.inputNodes()[0]).outputTypes[0].shape, (Shape{1, 3, 48, 192}));

  // A picture of it, for a person to look at.
  dialog.adjustSize();
  const QImage picture = dialog.grab().toImage();
  EXPECT_GT(picture.width(), 100);
  EXPECT_TRUE(picture.save(QDir::temp().filePath(QStringLiteral("tessera-shape-dialog.png"))));
}

TEST(ShapeBindingsDialog, NamesSuggestSizesAndUnnamedAxesBindWholeShapes) {
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("batch_size", 0, 2), 1);
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("N", 0, 4), 1);
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("sequence_length", 1, 2), 128);
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("height", 2, 4), 224);
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("", 3, 4), 224);
  EXPECT_EQ(ShapeBindingsDialog::suggestedSize("unk__7", 1, 3), 1);

  onnx_io::DeclaredInput tokens{"tokens", true, {-1, -1}, {"batch", ""}};
  ShapeBindingsDialog dialog(QStringLiteral("/nowhere/tokens.onnx"), {tokens}, {});
  ASSERT_EQ(dialog.fields().size(), 2u);
  fieldBox(dialog, QStringLiteral("tokens axis 1"))->setValue(7);
  onnx_io::ShapeBindings chosen = dialog.bindings();
  EXPECT_EQ(chosen.dims.at("batch"), 1);
  EXPECT_EQ(chosen.inputShapes.at("tokens"), (Shape{1, 7}));
}

TEST(ShapeBindingsDialog, RemembersTheSizesLastGivenForAModel) {
  const std::vector<onnx_io::DeclaredInput> inputs = onnx_io::bindableInputs(kClassifier.toStdString());
  const QString path = QStringLiteral("/nowhere/remembered-%1.onnx").arg(QCoreApplication::applicationPid());
  {
    ShapeBindingsDialog first(path, inputs, {});
    fieldBox(first, QStringLiteral("p2o.DynamicDimension.1"))->setValue(48);
    first.remember();
  }
  ShapeBindingsDialog again(path, inputs, {});
  EXPECT_EQ(fieldBox(again, QStringLiteral("p2o.DynamicDimension.1"))->value(), 48);
  ShapeBindingsDialog other(QStringLiteral("/nowhere/other.onnx"), inputs, {});
  EXPECT_EQ(fieldBox(other, QStringLiteral("p2o.DynamicDimension.1"))->value(), 224) << "remembered per model";
}

TEST(ShapeBindingsDialog, TheWindowAsksBeforeOpeningAndOpensWithTheSizes) {
  MainWindow window(testWindowOptions());
  window.show();
  QSignalSpy asked(&window, &MainWindow::shapesDialogShown);
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  window.openPath(kClassifier);
  ASSERT_TRUE(asked.wait(10000)) << window.lastError().toStdString();
  auto* dialog = qobject_cast<ShapeBindingsDialog*>(asked.at(0).at(0).value<QDialog*>());
  ASSERT_TRUE(dialog);
  EXPECT_FALSE(window.original().graph) << "nothing opens before the sizes are given";
  fieldBox(*dialog, QStringLiteral("p2o.DynamicDimension.1"))->setValue(48);
  fieldBox(*dialog, QStringLiteral("p2o.DynamicDimension.2"))->setValue(192);
  dialog->accept();
  ASSERT_TRUE(opened.wait(20000)) << window.lastError().toStdString();
  const Graph& graph = *window.original().graph;
  EXPECT_EQ(graph.node(graph.inputNodes()[0]).outputTypes[0].shape, (Shape{1, 3, 48, 192}));

  // Sizes given up front (as the command line gives them): no dialog.
  asked.clear();
  onnx_io::ShapeBindings shapes;
  shapes.inputShapes["x"] = {1, 3, 48, 96};
  window.openPath(kClassifier, shapes);
  ASSERT_TRUE(opened.wait(20000)) << window.lastError().toStdString();
  EXPECT_EQ(asked.count(), 0);
  EXPECT_EQ(window.original().graph->node(window.original().graph->inputNodes()[0]).outputTypes[0].shape, (Shape{1, 3, 48, 96}));
}

TEST(ShapeBindingsDialog, TheCommandLineTakesInputShapeAndDim) {
  CommandLine given = parseCommandLine({"tessera", "m.onnx", "--input-shape", "x=1x3x48x192", "--dim", "N=2", "--dim", "T=9"});
  ASSERT_TRUE(given.error.isEmpty()) << given.error.toStdString();
  EXPECT_EQ(given.shapes.inputShapes.at("x"), (Shape{1, 3, 48, 192}));
  EXPECT_EQ(given.shapes.dims, (std::map<std::string, int64_t>{{"N", 2}, {"T", 9}}));
  EXPECT_TRUE(parseCommandLine({"tessera", "--dim", "N=zero"}).error.contains("--dim N=zero"));
  EXPECT_TRUE(parseCommandLine({"tessera", "--input-shape", "x"}).error.contains("--input-shape"));
}
