// Asks for the sizes a model leaves open before it opens: one field per symbolic dimension
// (dim_param) and per unnamed open axis. A field is prefilled with the size the command line gave,
// else the size last given for this model (remembered per model path), else a guess from its name
// (batch-like names 1). The IR optimises a graph of fixed shape, so nothing opens without them.
#pragma once

#include "onnx/ShapeBindings.h"

#include <QDialog>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

class QSpinBox;

namespace tessera::gui {

class ShapeBindingsDialog : public QDialog {
  Q_OBJECT

public:
  // `inputs`: the model's bindable inputs (onnx_io::bindableInputs); `given`: the command line's.
  ShapeBindingsDialog(const QString& modelPath, std::vector<onnx_io::DeclaredInput> inputs, onnx_io::ShapeBindings given,
                      QWidget* parent = nullptr);

  // The fields' sizes as bindings, with the given ones they did not ask for.
  onnx_io::ShapeBindings bindings() const;
  // Stores the fields' sizes as this model's last given ones (QSettings).
  void remember() const;

  struct Field {
    QString label;     // "p2o.DynamicDimension.0", or "x axis 2" for an unnamed axis
    std::string param; // empty for an unnamed axis
    std::string input; // the unnamed axis's input
    int axis = -1;
    QSpinBox* box = nullptr;
  };
  const std::vector<Field>& fields() const { return fields_; }

  // The guess for a field nothing else fills: 1 for batch-like names and an unnamed leading axis,
  // 224 for an image's height and width, 128 for sequence lengths, else 1.
  static int64_t suggestedSize(const std::string& param, int axis, size_t rank);

private:
  QString settingsKey() const;

  QString modelPath_;
  std::vector<onnx_io::DeclaredInput> inputs_;
  onnx_io::ShapeBindings given_;
  std::vector<Field> fields_;
};

} // namespace tessera::gui
