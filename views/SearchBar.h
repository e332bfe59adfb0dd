// The find bar a graph view shows on Ctrl+F: a query field, "3 of 12", previous / next / close.
// It only collects input; the view runs the search (NodeSearch) and moves to the results.
#pragma once

#include <QFrame>

#include <functional>

class QLineEdit;
class QLabel;

namespace tessera::views {

class SearchBar final : public QFrame {
public:
  explicit SearchBar(QWidget* parent);

  std::function<void(const QString&)> onQueryChanged;
  std::function<void(bool backwards)> onStep;
  std::function<void()> onClose;

  void activate();                 // show, select the text, focus
  void setResult(int current, int total); // current is 0-based; -1 when there is none
  QString query() const;
  void setQuery(const QString& text);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  QLineEdit* field_;
  QLabel* count_;
};

} // namespace tessera::views
