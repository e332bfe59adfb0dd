// The properties dock's content: a heading and a tree of NodePropertiesModel for the selected
// node (or the whole graph when nothing is selected).
#pragma once

#include "GraphSnapshot.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTreeView;

namespace tessera::views {

class NodePropertiesModel;

class PropertiesPanel final : public QWidget {
public:
  explicit PropertiesPanel(QWidget* parent = nullptr);

  void showNode(const GraphSnapshot& snapshot, std::optional<NodeId> node);
  void clear();
  NodePropertiesModel* model() const { return model_; }

private:
  QLabel* heading_;
  QTreeView* tree_;
  NodePropertiesModel* model_;
};

} // namespace tessera::views
