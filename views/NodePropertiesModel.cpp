#include "NodePropertiesModel.h"

#include "cost/GraphCost.h"
#include "cost/OpWork.h"
#include "ir/GraphStats.h"

#include <QFont>

#include <cmath>

namespace tessera::views {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString typeText(const TensorType& type) { return qs(type.toString()); }

QString nameOr(const Node& node, NodeId id) {
  return node.name.empty() ? QStringLiteral("#%1").arg(id) : qs(node.name);
}

} // namespace

QString humanCount(double value) {
  const char* units[] = {"", " k", " M", " G", " T", " P"};
  int unit = 0;
  double v = std::abs(value);
  while (v >= 1000 && unit < 5) {
    v /= 1000;
    ++unit;
  }
  double shown = value < 0 ? -v : v;
  if (unit == 0) return QString::number(static_cast<long long>(std::llround(shown)));
  return QString::number(shown, 'f', v < 10 ? 2 : v < 100 ? 1 : 0) + units[unit];
}

QString formatMs(double ms) {
  if (ms == 0) return QStringLiteral("0 ms");
  if (std::abs(ms) < 0.01) return QString::number(ms * 1000, 'f', 3) + QStringLiteral(" µs");
  return QString::number(ms, 'f', 4) + QStringLiteral(" ms");
}

NodePropertiesModel::NodePropertiesModel(QObject* parent) : QAbstractItemModel(parent) {}

void NodePropertiesModel::clear() {
  beginResetModel();
  groups_.clear();
  node_.reset();
  endResetModel();
}

void NodePropertiesModel::show(const GraphSnapshot& snapshot, std::optional<NodeId> node) {
  beginResetModel();
  groups_.clear();
  node_.reset();
  if (!snapshot.graph) {
    endResetModel();
    return;
  }
  const Graph& graph = *snapshot.graph;
  QString costModel = snapshot.costSpec.empty() ? QStringLiteral("no cost model") : qs(snapshot.costSpec);

  if (!node || *node >= graph.size()) {
    GraphStats stats = computeGraphStats(graph);
    Group model{tr("Model"), {}};
    model.rows.push_back({tr("Name"), qs(snapshot.title.empty() ? graph.info.name : snapshot.title)});
    model.rows.push_back({tr("Ops"), QString::number(stats.ops)});
    model.rows.push_back({tr("Inputs"), QString::number(graph.inputNodes().size())});
    model.rows.push_back({tr("Outputs"), QString::number(graph.outputs().size())});
    model.rows.push_back({tr("Weights"), QString::number(stats.weights)});
    model.rows.push_back({tr("Parameters"), humanCount(static_cast<double>(stats.parameters))});
    model.rows.push_back({tr("Opset"), QString::number(graph.info.opset)});
    if (!snapshot.costSpec.empty()) model.rows.push_back({tr("Cost"), formatMs(snapshot.totalMs) + " (" + costModel + ")"});
    groups_.push_back(std::move(model));
    Group kinds{tr("Ops by kind"), {}};
    for (const auto& [kind, count] : stats.opsByKind) kinds.rows.push_back({qs(kind), QString::number(count)});
    if (!kinds.rows.empty()) groups_.push_back(std::move(kinds));
    endResetModel();
    return;
  }

  node_ = node;
  const Node& n = graph.node(*node);
  const OpInfo& info = opInfo(n.kind);
  Group identity{tr("Node"), {}};
  identity.rows.push_back({tr("Name"), nameOr(n, *node)});
  QString op = n.kind == OpKind::Opaque && n.opaque ? qs(n.opaque->domain.empty() ? n.opaque->opType : n.opaque->domain + "::" + n.opaque->opType)
                                                    : qs(std::string(info.name));
  identity.rows.push_back({tr("Op"), op});
  identity.rows.push_back({tr("Category"), qs(std::string(categoryName(info.category)))});
  if (n.kind == OpKind::Weight && n.weight) {
    identity.rows.push_back({tr("Elements"), humanCount(static_cast<double>(n.weight->numel()))});
    if (n.weight->isSplat()) identity.rows.push_back({tr("Value"), tr("every element %1").arg(n.weight->valueAt(0), 0, 'g', 6)});
  }
  groups_.push_back(std::move(identity));

  Group attributes{tr("Attributes"), {}};
  for (const auto& [name, value] : n.attrs.entries()) attributes.rows.push_back({qs(name), qs(attrValueToString(value))});
  if (!attributes.rows.empty()) groups_.push_back(std::move(attributes));

  Group inputs{tr("Inputs"), {}};
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    ValueRef input = n.inputs[i];
    if (input.isNone()) {
      inputs.rows.push_back({QStringLiteral("%1").arg(i), tr("(absent)")});
      continue;
    }
    const Node& producer = graph.node(input.node);
    QString from = nameOr(producer, input.node);
    if (producer.numOutputs() > 1) from += QStringLiteral(":%1").arg(input.port);
    QString what = typeText(graph.typeOf(input));
    if (producer.kind == OpKind::Weight) what += tr("  weight");
    inputs.rows.push_back({QStringLiteral("%1  %2").arg(i).arg(from), what});
  }
  if (!inputs.rows.empty()) groups_.push_back(std::move(inputs));

  Group outputs{tr("Outputs"), {}};
  for (int port = 0; port < n.numOutputs(); ++port) {
    int consumers = 0;
    for (const Node& other : graph.nodes())
      for (ValueRef input : other.inputs) consumers += input.node == *node && input.port == static_cast<uint32_t>(port);
    QString name = port < static_cast<int>(n.outputNames.size()) && !n.outputNames[port].empty() ? qs(n.outputNames[port])
                                                                                                  : QStringLiteral("%1").arg(port);
    outputs.rows.push_back({name, tr("%1  → %n consumer(s)", nullptr, consumers).arg(typeText(n.outputTypes[port]))});
  }
  if (!outputs.rows.empty()) groups_.push_back(std::move(outputs));

  if (n.kind != OpKind::Input && n.kind != OpKind::Weight) {
    Group cost{tr("Cost"), {}};
    double ms = snapshot.costOf(*node);
    if (!snapshot.costSpec.empty()) {
      cost.rows.push_back({tr("Time"), formatMs(ms) + " (" + costModel + ")"});
      if (snapshot.totalMs > 0) cost.rows.push_back({tr("Share of graph"), QString::number(ms / snapshot.totalMs * 100, 'f', 2) + " %"});
    }
    try {
      OpWork work = opWork(signatureOf(graph, *node));
      cost.rows.push_back({tr("FLOPs"), humanCount(work.flops)});
      cost.rows.push_back({tr("Bytes moved"), humanCount(work.bytes) + "B"});
      if (work.isFree) cost.rows.push_back({tr("Note"), tr("a view: the runtime does not execute it")});
      else if (ms == 0 && !snapshot.costSpec.empty()) cost.rows.push_back({tr("Note"), tr("computed from weights ahead of time")});
    } catch (const std::exception& error) {
      cost.rows.push_back({tr("FLOPs"), tr("unknown (%1)").arg(qs(error.what()))});
    }
    groups_.push_back(std::move(cost));
  }
  endResetModel();
}

QString NodePropertiesModel::value(const QString& group, const QString& key) const {
  for (const Group& g : groups_) {
    if (g.title != group) continue;
    for (const Row& row : g.rows)
      if (row.key == key) return row.value;
  }
  return {};
}

QStringList NodePropertiesModel::groups() const {
  QStringList titles;
  for (const Group& g : groups_) titles << g.title;
  return titles;
}

// Group rows carry internal id 0; property rows carry their group's row + 1.
QModelIndex NodePropertiesModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= 2) return {};
  if (!parent.isValid()) return row < static_cast<int>(groups_.size()) ? createIndex(row, column, quintptr(0)) : QModelIndex();
  if (parent.internalId() != 0 || parent.column() != 0) return {};
  const Group& group = groups_[parent.row()];
  if (row >= static_cast<int>(group.rows.size())) return {};
  return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex NodePropertiesModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int NodePropertiesModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(groups_.size());
  if (parent.column() != 0 || parent.internalId() != 0) return 0;
  return static_cast<int>(groups_[parent.row()].rows.size());
}

int NodePropertiesModel::columnCount(const QModelIndex&) const { return 2; }

QVariant NodePropertiesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  if (index.internalId() == 0) {
    const Group& group = groups_[index.row()];
    if (role == Qt::DisplayRole && index.column() == 0) return group.title;
    if (role == Qt::FontRole) {
      QFont font;
      font.setBold(true);
      return font;
    }
    return {};
  }
  const Row& row = groups_[index.internalId() - 1].rows[index.row()];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return index.column() == 0 ? row.key : row.value;
  return {};
}

QVariant NodePropertiesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == 0 ? tr("Property") : tr("Value");
}

Qt::ItemFlags NodePropertiesModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

} // namespace tessera::views
