#include "PropertiesPanel.h"

#include "NodePropertiesModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::views {

PropertiesPanel::PropertiesPanel(QWidget* parent) : QWidget(parent), model_(new NodePropertiesModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  heading_ = new QLabel(this);
  heading_->setWordWrap(true);
  heading_->setTextFormat(Qt::PlainText);
  QFont font = heading_->font();
  font.setBold(true);
  font.setPointSizeF(font.pointSizeF() * 1.1);
  heading_->setFont(font);
  tree_ = new QTreeView(this);
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->setRootIsDecorated(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(true);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  layout->addWidget(heading_);
  layout->addWidget(tree_);
  connect(model_, &QAbstractItemModel::modelReset, tree_, &QTreeView::expandAll);
  clear();
}

void PropertiesPanel::showNode(const GraphSnapshot& snapshot, std::optional<NodeId> node) {
  model_->show(snapshot, node);
  if (!snapshot.graph) {
    heading_->setText(tr("No model"));
    return;
  }
  if (!model_->node()) {
    heading_->setText(QString::fromStdString(snapshot.title.empty() ? snapshot.graph->info.name : snapshot.title));
    return;
  }
  const Node& n = snapshot.graph->node(*node);
  QString op = model_->value(tr("Node"), tr("Op"));
  heading_->setText(n.name.empty() ? op : op + QStringLiteral(" · ") + QString::fromStdString(n.name));
}

void PropertiesPanel::clear() {
  model_->clear();
  heading_->setText(tr("No model"));
}

} // namespace tessera::views
