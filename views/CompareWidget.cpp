#include "CompareWidget.h"

#include "GraphScene.h"
#include "GraphView.h"
#include "MeasuredLatencyBar.h"
#include "NodeItem.h"
#include "NodePropertiesModel.h"
#include "OpCountDiffModel.h"
#include "RegionDeltaModel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace tessera::views {

namespace {

QLabel* titleLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setTextFormat(Qt::RichText);
  label->setContentsMargins(6, 3, 6, 3);
  // A title can be a long verdict ("kept the original (...: +8.32 % [...] on cpu:...)"): wrapped, so
  // it never widens the window beyond the screen.
  label->setWordWrap(true);
  return label;
}

QString chip(const QColor& color, const QString& text) {
  return QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2").arg(color.name(), text);
}

} // namespace

CompareWidget::CompareWidget(QWidget* parent) : QWidget(parent) {
  before_ = new GraphView(this);
  after_ = new GraphView(this);
  before_->setPlaceholderText(tr("Run a search (Run ▸ Start) to compare the original with its optimised graph"));
  after_->setPlaceholderText(QString());
  beforeTitle_ = titleLabel(this);
  afterTitle_ = titleLabel(this);
  summary_ = new QLabel(this);
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  summary_->setContentsMargins(6, 4, 6, 4);
  measured_ = new MeasuredLatencyBar(this);
  sync_ = new QCheckBox(tr("Synchronise navigation"), this);
  sync_->setChecked(true);

  opCounts_ = new OpCountDiffModel(this);
  auto* proxy = new QSortFilterProxyModel(this);
  proxy->setSourceModel(opCounts_);
  proxy->setSortRole(Qt::UserRole);
  table_ = new QTableView(this);
  table_->setModel(proxy);
  table_->setSortingEnabled(true);
  table_->sortByColumn(OpCountDiffModel::MsBefore, Qt::DescendingOrder);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);

  regions_ = new RegionDeltaModel(this);
  auto* regionProxy = new QSortFilterProxyModel(this);
  regionProxy->setSourceModel(regions_);
  regionProxy->setSortRole(Qt::UserRole);
  regionTable_ = new QTableView(this);
  regionTable_->setModel(regionProxy);
  regionTable_->setSortingEnabled(true);
  regionTable_->sortByColumn(RegionDeltaModel::DeltaMs, Qt::AscendingOrder);
  regionTable_->verticalHeader()->hide();
  regionTable_->verticalHeader()->setDefaultSectionSize(regionTable_->fontMetrics().height() + 6);
  regionTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  regionTable_->horizontalHeader()->setStretchLastSection(true);
  regionTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  regionTable_->setSelectionMode(QAbstractItemView::SingleSelection);
  regionTable_->setAlternatingRowColors(true);
  regionTable_->setToolTip(tr("Connected groups of changed nodes, priced before and after; select one to frame it on both sides"));

  rules_ = new QTreeWidget(this);
  rules_->setColumnCount(2);
  rules_->setHeaderLabels({tr("Rewrite rule"), tr("Applied")});
  rules_->setRootIsDecorated(false);
  rules_->setAlternatingRowColors(true);
  rules_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  rules_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  rules_->setToolTip(tr("Rewrites applied to the e-graph during the run; the extracted graph uses some of them"));

  auto column = [this](QLabel* title, GraphView* view) {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(title);
    layout->addWidget(view, 1);
    return box;
  };
  auto* graphs = new QSplitter(Qt::Horizontal, this);
  graphs->addWidget(column(beforeTitle_, before_));
  graphs->addWidget(column(afterTitle_, after_));
  graphs->setChildrenCollapsible(false);

  auto* details = new QWidget(this);
  auto* detailsLayout = new QHBoxLayout(details);
  detailsLayout->setContentsMargins(0, 0, 0, 0);
  detailsLayout->addWidget(regionTable_, 4);
  detailsLayout->addWidget(table_, 3);
  detailsLayout->addWidget(rules_, 2);

  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(graphs);
  vertical->addWidget(details);
  vertical->setStretchFactor(0, 1);
  vertical->setStretchFactor(1, 0);
  vertical->setSizes({800, 170}); // the graphs are what people look at; the tables stay compact
  vertical->setChildrenCollapsible(false);

  auto* header = new QHBoxLayout;
  header->addWidget(summary_, 1);
  header->addWidget(sync_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(header);
  layout->addWidget(measured_);
  layout->addWidget(vertical, 1);

  connect(before_, &GraphView::viewportChanged, this, [this] { syncView(true); });
  connect(after_, &GraphView::viewportChanged, this, [this] { syncView(false); });
  connect(before_->graphScene(), &GraphScene::selectedNodeChanged, this, [this](qint64 node) { syncSelection(true, node); });
  connect(after_->graphScene(), &GraphScene::selectedNodeChanged, this, [this](qint64 node) { syncSelection(false, node); });
  // Once the optimised side is laid out, show it where the original is.
  connect(after_->graphScene(), &GraphScene::layoutFinished, this, [this] { syncView(true); });
  connect(before_->graphScene(), &GraphScene::layoutFinished, this, [this] { syncView(true); });
  connect(regionTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this, regionProxy](const QModelIndex& current) {
    if (current.isValid()) focusRegion(regionProxy->mapToSource(current).row());
  });
  connect(sync_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) syncView(true);
  });
  clear();
}

CompareWidget::~CompareWidget() = default;

void CompareWidget::setGraphs(GraphSnapshot before, GraphSnapshot after, const std::map<std::string, size_t>& rulesApplied) {
  setGraphs(std::move(before), std::move(after), rulesApplied, {});
}

void CompareWidget::setGraphs(GraphSnapshot before, GraphSnapshot after, const std::map<std::string, size_t>& rulesApplied,
                              std::vector<NodeOrigin> afterOrigins) {
  if (!before.graph || !after.graph) {
    clear();
    return;
  }
  diff_ = diffGraphs(*before.graph, *after.graph);
  rulesApplied_ = rulesApplied;
  afterOrigins_ = afterOrigins.size() == after.graph->size() ? std::move(afterOrigins) : std::vector<NodeOrigin>{};
  opCounts_->setGraphs(before, after);
  before_->graphScene()->setSnapshot(std::move(before));
  after_->graphScene()->setSnapshot(std::move(after));
  before_->graphScene()->setDiffMarks(diff_.before, true);
  after_->graphScene()->setDiffMarks(diff_.after, true);
  updateRegions();
  fillRules();
  updateTitles();
  updateSummary();
  measured_->reset(timingBackend_, noTimingBecause_);
}

void CompareWidget::setTimingBackend(const QString& backend, const QString& why) {
  timingBackend_ = backend;
  noTimingBecause_ = why;
  if (hasGraphs() && !measured_->hasMeasurement()) measured_->reset(backend, why);
}

void CompareWidget::setMeasured(const EndToEndComparison& comparison) {
  const Theme& theme = before_->graphScene()->style().theme;
  measured_->setMeasured(comparison, theme.added, theme.removed);
}

std::vector<std::pair<QString, int>> CompareWidget::ruleRows() const {
  std::map<std::string, size_t> counts;
  if (afterOrigins_.empty()) {
    counts = rulesApplied_;
  } else {
    for (const ChangedRegion& region : regions_->regions())
      for (const auto& [rule, nodes] : region.rules) counts[rule] += nodes;
  }
  std::vector<std::pair<QString, int>> rows;
  for (const auto& [name, count] : counts)
    if (count > 0) rows.emplace_back(QString::fromStdString(name), static_cast<int>(count));
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return rows;
}

void CompareWidget::fillRules() {
  rules_->clear();
  bool provenance = !afterOrigins_.empty();
  rules_->setHeaderLabels({tr("Rewrite rule"), provenance ? tr("Nodes") : tr("Applied")});
  rules_->setToolTip(provenance ? tr("Rules that created the changed nodes of the right-hand graph (its provenance)")
                                : tr("Rewrites applied during the run; the extracted graph uses some of them"));
  for (const auto& [name, count] : ruleRows()) {
    auto* item = new QTreeWidgetItem(rules_, {name, QString::number(count)});
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
  }
}

void CompareWidget::updateRegions() {
  regions_->setRegions(changedRegions(diff_, before_->graphScene()->snapshot(), after_->graphScene()->snapshot(), afterOrigins_));
}

bool CompareWidget::focusRegion(int row) {
  if (row < 0 || row >= static_cast<int>(regions_->regions().size())) return false;
  const ChangedRegion& region = regions_->regions()[row];
  syncing_ = true;
  bool shownBefore = before_->focusNodes(region.before);
  bool shownAfter = after_->focusNodes(region.after);
  syncing_ = false;
  // A region that exists on one side only (pure additions or removals): place the other side by
  // its matched neighbours.
  if (shownBefore && !shownAfter) syncView(true);
  if (shownAfter && !shownBefore) syncView(false);
  return shownBefore || shownAfter;
}

void CompareWidget::setCosts(const GraphSnapshot& before, const GraphSnapshot& after) {
  if (!hasGraphs()) return;
  before_->graphScene()->setCosts(before);
  after_->graphScene()->setCosts(after);
  opCounts_->setGraphs(before_->graphScene()->snapshot(), after_->graphScene()->snapshot());
  updateRegions();
  updateTitles();
  updateSummary();
}

void CompareWidget::clear() {
  diff_ = {};
  before_->graphScene()->clearGraph();
  after_->graphScene()->clearGraph();
  opCounts_->clear();
  regions_->setRegions({});
  rulesApplied_.clear();
  afterOrigins_.clear();
  rules_->clear();
  beforeTitle_->setText(tr("<b>Before</b>"));
  afterTitle_->setText(tr("<b>After</b>"));
  summary_->setText(tr("Nothing to compare yet."));
  measured_->reset({}, tr("nothing to compare"));
}

bool CompareWidget::hasGraphs() const { return before_->graphScene()->snapshot().graph && after_->graphScene()->snapshot().graph; }

int CompareWidget::itemsShown() const { return before_->graphScene()->visibleNodeCount() + after_->graphScene()->visibleNodeCount(); }

void CompareWidget::setSynchronized(bool on) { sync_->setChecked(on); }

void CompareWidget::updateTitles() {
  auto title = [](const GraphSnapshot& s, const QString& fallback) {
    QString name = s.title.empty() ? fallback : QString::fromStdString(s.title).toHtmlEscaped();
    if (!s.graph) return QStringLiteral("<b>%1</b>").arg(name);
    return QStringLiteral("<b>%1</b> &nbsp; %2 ops · %3").arg(name).arg(s.graph->opCount()).arg(formatMs(s.totalMs));
  };
  beforeTitle_->setText(title(before_->graphScene()->snapshot(), tr("Before")));
  afterTitle_->setText(title(after_->graphScene()->snapshot(), tr("After")));
}

void CompareWidget::updateSummary() {
  const GraphSnapshot& a = before_->graphScene()->snapshot();
  const GraphSnapshot& b = after_->graphScene()->snapshot();
  if (!a.graph || !b.graph) return;
  const Theme& theme = before_->graphScene()->style().theme;
  double speedup = a.totalMs > 0 ? (a.totalMs - b.totalMs) / a.totalMs * 100 : 0;
  QColor deltaColor = speedup > 0 ? theme.added : speedup < 0 ? theme.removed : theme.text;
  QString text = tr("predicted %1 → %2 ms &nbsp;speedup <b><span style='color:%3'>%4 %</span></b>"
                    " &nbsp;·&nbsp; %5 → %6 ops &nbsp;·&nbsp; %7 &nbsp; %8 &nbsp; %9")
                     .arg(a.totalMs, 0, 'f', 4)
                     .arg(b.totalMs, 0, 'f', 4)
                     .arg(deltaColor.name())
                     .arg(speedup, 0, 'f', 2)
                     .arg(a.graph->opCount())
                     .arg(b.graph->opCount())
                     .arg(chip(theme.added, tr("%1 added").arg(diff_.added)))
                     .arg(chip(theme.removed, tr("%1 removed").arg(diff_.removed)))
                     .arg(chip(theme.changed, tr("%1 changed").arg(diff_.changed)));
  if (!a.costSpec.empty()) text += QStringLiteral(" &nbsp;<small>(%1)</small>").arg(QString::fromStdString(a.costSpec));
  summary_->setText(text);
}

void CompareWidget::syncView(bool fromBefore) {
  if (syncing_ || !sync_->isChecked() || !hasGraphs()) return;
  GraphView* source = fromBefore ? before_ : after_;
  GraphView* target = fromBefore ? after_ : before_;
  GraphScene* sourceScene = source->graphScene();
  GraphScene* targetScene = target->graphScene();
  if (sourceScene->graphBounds().isEmpty() || targetScene->graphBounds().isEmpty()) return;
  const auto& counterparts = fromBefore ? diff_.beforeToAfter : diff_.afterToBefore;

  // Anchor on the matched node nearest the centre, so both sides show the same part of the model
  // even where one side's layout has shifted.
  QPointF center = source->viewCenter();
  QRectF window = source->mapToScene(source->viewport()->rect()).boundingRect();
  NodeItem* anchor = nullptr;
  NodeItem* anchorTarget = nullptr;
  double best = std::numeric_limits<double>::max();
  for (QGraphicsItem* item : sourceScene->items(window, Qt::IntersectsItemBoundingRect)) {
    if (item->type() != NodeItem::Type) continue;
    auto* node = static_cast<NodeItem*>(item);
    if (node->role() == NodeRole::Output || node->nodeId() >= counterparts.size() || !counterparts[node->nodeId()]) continue;
    NodeItem* other = targetScene->itemForNode(*counterparts[node->nodeId()]);
    if (!other) continue;
    QPointF d = node->pos() - center;
    double distance = d.x() * d.x() + d.y() * d.y();
    if (distance < best) {
      best = distance;
      anchor = node;
      anchorTarget = other;
    }
  }
  QPointF targetCenter;
  if (anchor) {
    targetCenter = anchorTarget->pos() + (center - anchor->pos());
  } else {
    QRectF from = sourceScene->graphBounds();
    QRectF to = targetScene->graphBounds();
    targetCenter = QPointF(to.left() + (center.x() - from.left()) / from.width() * to.width(),
                           to.top() + (center.y() - from.top()) / from.height() * to.height());
  }
  syncing_ = true;
  target->setTransform(source->transform());
  target->centerOn(targetCenter);
  syncing_ = false;
}

void CompareWidget::syncSelection(bool fromBefore, qint64 node) {
  if (syncing_) return; // the echo of our own selection on the other side
  emit nodeSelected(fromBefore ? 0 : 1, node);
  const auto& counterparts = fromBefore ? diff_.beforeToAfter : diff_.afterToBefore;
  GraphScene* target = (fromBefore ? after_ : before_)->graphScene();
  std::optional<NodeId> other;
  if (node >= 0 && static_cast<size_t>(node) < counterparts.size()) other = counterparts[node];
  syncing_ = true;
  target->selectNode(other);
  syncing_ = false;
}

} // namespace tessera::views
