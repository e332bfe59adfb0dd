#include "UserGuide.h"

#include <QAction>
#include <QFile>
#include <QKeySequence>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolBar>
#include <QVBoxLayout>

namespace tessera::gui {

UserGuide::UserGuide(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName(QStringLiteral("userGuide"));
  setWindowTitle(tr("Tessera User Guide"));
  resize(900, 760);

  browser_ = new QTextBrowser(this);
  // Pages link to each other by relative paths; the browser resolves them against the page shown.
  // Links out of the guide (web pages) go to the desktop's browser.
  browser_->setOpenLinks(true);
  browser_->setOpenExternalLinks(true);
  browser_->document()->setDocumentMargin(12);

  auto* toolbar = new QToolBar(this);
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  back_ = toolbar->addAction(tr("Back"), browser_, &QTextBrowser::backward);
  back_->setShortcut(QKeySequence::Back);
  back_->setEnabled(false);
  forward_ = toolbar->addAction(tr("Forward"), browser_, &QTextBrowser::forward);
  forward_->setShortcut(QKeySequence::Forward);
  forward_->setEnabled(false);
  toolbar->addAction(tr("Contents"), this, [this] { open(contentsPage()); });
  connect(browser_, &QTextBrowser::backwardAvailable, back_, &QAction::setEnabled);
  connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QAction::setEnabled);
  // Markdown has no title element: a page's first line is its heading.
  connect(browser_, &QTextBrowser::sourceChanged, this, [this] {
    setWindowTitle(tr("%1 - Tessera User Guide").arg(browser_->document()->firstBlock().text()));
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(toolbar);
  layout->addWidget(browser_);
}

UserGuide* UserGuide::showPage(QWidget* owner, const QString& page) {
  auto* guide = owner->findChild<UserGuide*>(QString(), Qt::FindDirectChildrenOnly);
  if (!guide) guide = new UserGuide(owner);
  guide->open(page);
  guide->show();
  guide->raise();
  guide->activateWindow();
  return guide;
}

QString UserGuide::pageForView(const QString& viewName) {
  if (viewName == QLatin1String("graph")) return QStringLiteral("graph-view.md");
  if (viewName == QLatin1String("egraph")) return QStringLiteral("egraph-view.md");
  if (viewName == QLatin1String("mcts")) return QStringLiteral("mcts-view.md");
  if (viewName == QLatin1String("compare")) return QStringLiteral("guided-search.md");
  if (viewName == QLatin1String("training")) return QStringLiteral("rl-agents.md");
  if (viewName == QLatin1String("dream")) return QStringLiteral("agents-rlflow.md");
  if (viewName == QLatin1String("tuning") || viewName == QLatin1String("sip")) return QStringLiteral("kernel-tuning.md");
  return contentsPage();
}

QUrl UserGuide::pageUrl(const QString& page) { return QUrl(QStringLiteral("qrc:/doc/") + page); }

void UserGuide::open(const QString& page) {
  const QUrl url = pageUrl(page);
  // A page missing from the bundle is a packaging mistake; say so rather than show a blank window.
  if (!QFile::exists(QLatin1Char(':') + url.path())) {
    browser_->setHtml(tr("<p>The guide page <b>%1</b> is not in this build's bundled guide.</p>").arg(page.toHtmlEscaped()));
    return;
  }
  browser_->setSource(url, QTextDocument::MarkdownResource);
}

} // namespace tessera::gui
