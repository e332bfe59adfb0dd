// Help ▸ User Guide: the Markdown pages of resources/doc (bundled as the Qt resource :/doc) in a
// window of their own, with links between pages, back and forward, and the page of each view.
#pragma once

#include <QUrl>
#include <QWidget>

class QAction;
class QTextBrowser;

namespace tessera::gui {

class UserGuide : public QWidget {
  Q_OBJECT
public:
  explicit UserGuide(QWidget* parent = nullptr);

  // The guide window of `owner` (made on first use, a child window so it closes with it), shown,
  // raised and at `page`, a path under resources/doc such as "egraph-view.md".
  static UserGuide* showPage(QWidget* owner, const QString& page);

  static QString contentsPage() { return QStringLiteral("index.md"); }
  // The page that explains a view, by the names --view takes (graph, egraph, mcts, compare,
  // training, tuning); the contents page for any other name.
  static QString pageForView(const QString& viewName);
  // Where a page lives in the bundled guide: qrc:/doc/PAGE.
  static QUrl pageUrl(const QString& page);

  void open(const QString& page);
  QTextBrowser* browser() const { return browser_; }

private:
  QTextBrowser* browser_;
  QAction* back_;
  QAction* forward_;
};

} // namespace tessera::gui
