#include "ShapeBindingsDialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <set>

namespace tessera::gui {

namespace {

constexpr int kLargestSize = 1 << 20;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

} // namespace

int64_t ShapeBindingsDialog::suggestedSize(const std::string& param, int axis, size_t rank) {
  const std::string name = lowercase(param);
  if (contains(name, "batch") || name == "n" || name == "b" || name == "bs") return 1;
  if (contains(name, "seq") || contains(name, "len") || contains(name, "token") || contains(name, "time")) return 128;
  if (contains(name, "height") || contains(name, "width") || name == "h" || name == "w") return 224;
  // Exporters' generated names ("p2o.DynamicDimension.1", "unk__42") say nothing: go by position.
  if (axis == 0) return 1;
  if (rank == 4 && axis >= 2) return 224;
  return 1;
}

ShapeBindingsDialog::ShapeBindingsDialog(const QString& modelPath, std::vector<onnx_io::DeclaredInput> inputs,
                                         onnx_io::ShapeBindings given, QWidget* parent)
    : QDialog(parent), modelPath_(modelPath), inputs_(std::move(inputs)), given_(std::move(given)) {
  setWindowTitle(tr("Input Sizes - %1").arg(QFileInfo(modelPath_).fileName()));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("<b>%1</b> leaves some input sizes open. Tessera optimises a graph of fixed shape: "
                              "give each a size (as <tt>--dim NAME=VALUE</tt> does on the command line).")
                               .arg(QFileInfo(modelPath_).fileName().toHtmlEscaped()),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* form = new QFormLayout;
  layout->addLayout(form);

  const QVariantMap remembered = QSettings().value(settingsKey()).toMap();
  std::set<std::string> asked;
  for (const FreeAxis& open : onnx_io::axesLeftOpen(inputs_, given_)) {
    if (open.axis < 0) continue; // an input of unknown rank: only --input-shape can size it
    if (!open.param.empty() && !asked.insert(open.param).second) continue;
    const auto input = std::find_if(inputs_.begin(), inputs_.end(), [&](const onnx_io::DeclaredInput& i) { return i.name == open.tensor; });
    Field field;
    field.param = open.param;
    field.input = open.tensor;
    field.axis = open.axis;
    field.label = open.param.empty() ? tr("%1 axis %2").arg(QString::fromStdString(open.tensor)).arg(open.axis) : QString::fromStdString(open.param);
    int64_t size = suggestedSize(open.param, open.axis, input->dims.size());
    if (auto it = remembered.find(field.label); it != remembered.end() && it->toLongLong() > 0) size = it->toLongLong();
    field.box = new QSpinBox(this);
    field.box->setRange(1, kLargestSize);
    field.box->setValue(static_cast<int>(std::min<int64_t>(size, kLargestSize)));
    field.box->setObjectName(field.label);
    // Where the dimension appears, so that a generated name still says what it sizes.
    QString where;
    for (const onnx_io::DeclaredInput& i : inputs_)
      for (size_t axis = 0; axis < i.dims.size(); ++axis)
        if (i.dims[axis] < 0 && (open.param.empty() ? i.name == open.tensor && static_cast<int>(axis) == open.axis : i.params[axis] == open.param))
          where += (where.isEmpty() ? QString() : QStringLiteral(", ")) + tr("%1 axis %2").arg(QString::fromStdString(i.name)).arg(axis);
    field.box->setToolTip(tr("Size of %1 (%2)").arg(field.label, where));
    form->addRow(open.param.empty() ? field.label : tr("%1  (%2)").arg(field.label, where), field.box);
    fields_.push_back(field);
  }
  // Sizes the command line already gave are shown, not asked for again.
  for (const auto& [name, size] : given_.dims)
    form->addRow(QString::fromStdString(name), new QLabel(tr("%1 (command line)").arg(size), this));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

onnx_io::ShapeBindings ShapeBindingsDialog::bindings() const {
  onnx_io::ShapeBindings result = given_;
  for (const Field& field : fields_)
    if (!field.param.empty()) result.dims[field.param] = field.box->value();
  // An unnamed axis has no name to bind: its input gets a whole shape.
  for (const Field& field : fields_) {
    if (!field.param.empty() || result.inputShapes.count(field.input)) continue;
    const auto input = std::find_if(inputs_.begin(), inputs_.end(), [&](const onnx_io::DeclaredInput& i) { return i.name == field.input; });
    Shape shape;
    for (size_t axis = 0; axis < input->dims.size(); ++axis) {
      if (input->dims[axis] >= 0) {
        shape.push_back(input->dims[axis]);
        continue;
      }
      auto named = result.dims.find(input->params[axis]);
      if (!input->params[axis].empty() && named != result.dims.end()) {
        shape.push_back(named->second);
        continue;
      }
      auto unnamed = std::find_if(fields_.begin(), fields_.end(),
                                  [&](const Field& f) { return f.param.empty() && f.input == field.input && f.axis == static_cast<int>(axis); });
      assert(unnamed != fields_.end() && "every open axis without a bound name has a field");
      shape.push_back(unnamed->box->value());
    }
    result.inputShapes[field.input] = shape;
  }
  return result;
}

void ShapeBindingsDialog::remember() const {
  QVariantMap sizes = QSettings().value(settingsKey()).toMap();
  for (const Field& field : fields_) sizes[field.label] = field.box->value();
  QSettings().setValue(settingsKey(), sizes);
}

QString ShapeBindingsDialog::settingsKey() const {
  // One entry per model file; '/' would nest QSettings groups.
  QString path = QFileInfo(modelPath_).absoluteFilePath();
  path.replace(QLatin1Char('/'), QLatin1Char('|'));
  return QStringLiteral("inputSizes/") + path;
}

} // namespace tessera::gui
