// Help ▸ User Guide and Help ▸ This View: the guide's pages are all bundled, open in the guide
// window, link to each other (a link clicked is followed, back and forward return), and This View
// opens the page of the tab in front.
#include "CommandLine.h"
#include "MainWindow.h"
#include "TestModels.h"
#include "TestWindowOptions.h"
#include "UserGuide.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace tessera::gui;

namespace {

const QString kGuideDir = QStringLiteral(TESSERA_SOURCE_DIR "/resources/doc");

// Every .md under `root`, as paths relative to it.
std::set<QString> markdownFiles(const QString& root) {
  std::set<QString> files;
  QDirIterator it(root, {QStringLiteral("*.md")}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) files.insert(QDir(root).relativeFilePath(it.next()));
  return files;
}

struct Link {
  QString href;
  int position; // of the anchor's first character in the document
};

std::vector<Link> linksOf(const QTextDocument& document) {
  std::vector<Link> links;
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (fragment.isValid() && fragment.charFormat().isAnchor())
        links.push_back({fragment.charFormat().anchorHref(), fragment.position()});
    }
  return links;
}

QAction* helpAction(MainWindow& window, const char* objectName) {
  auto* action = window.findChild<QAction*>(QString::fromLatin1(objectName));
  EXPECT_NE(action, nullptr) << objectName;
  return action;
}

UserGuide* guideOf(MainWindow& window) { return window.findChild<UserGuide*>(); }

// Clicks a link the way a person does: at its place in the viewport.
void clickLink(QTextBrowser* browser, const Link& link) {
  QTextCursor cursor(browser->document());
  cursor.setPosition(link.position + 1);
  browser->setTextCursor(cursor);
  browser->ensureCursorVisible();
  const QPoint at = browser->cursorRect(cursor).center() - QPoint(2, 0);
  QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

TEST(UserGuide, BundlesEveryPageOfResourcesDoc) {
  const std::set<QString> sources = markdownFiles(kGuideDir);
  ASSERT_FALSE(sources.empty()) << kGuideDir.toStdString();
  const std::set<QString> bundled = markdownFiles(QStringLiteral(":/doc"));
  for (const QString& page : sources)
    EXPECT_TRUE(bundled.count(page)) << "resources/doc/" << page.toStdString()
                                     << " is not bundled: add it to resources/doc/pages.cmake";
  for (const QString& page : bundled) EXPECT_TRUE(sources.count(page)) << page.toStdString() << " is bundled but gone";
}

TEST(UserGuide, EveryLinkBetweenPagesLeadsToABundledPage) {
  UserGuide guide;
  size_t pageLinks = 0;
  for (const QString& page : markdownFiles(QStringLiteral(":/doc"))) {
    guide.open(page);
    ASSERT_EQ(guide.browser()->source(), UserGuide::pageUrl(page));
    const std::vector<Link> links = linksOf(*guide.browser()->document());
    for (const Link& link : links) {
      const QUrl target = guide.browser()->source().resolved(QUrl(link.href));
      if (target.scheme() != QLatin1String("qrc")) continue; // a web page
      ++pageLinks;
      EXPECT_TRUE(QFile::exists(QLatin1Char(':') + target.path()))
          << page.toStdString() << " links to " << link.href.toStdString() << ", which is not in the guide";
    }
  }
  EXPECT_GT(pageLinks, 100u) << "the pages link to each other";
}

TEST(UserGuide, OpensFromTheHelpMenuFollowsALinkAndGoesBackAndForward) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  ASSERT_EQ(guideOf(window), nullptr);
  helpAction(window, "userGuideAction")->trigger();
  UserGuide* guide = guideOf(window);
  ASSERT_NE(guide, nullptr);
  EXPECT_TRUE(guide->isVisible());
  QTextBrowser* browser = guide->browser();
  EXPECT_EQ(browser->source(), UserGuide::pageUrl(QStringLiteral("index.md")));
  EXPECT_TRUE(browser->toPlainText().startsWith(QStringLiteral("Tessera user guide"))) << browser->toPlainText().left(80).toStdString();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(guide));

  const std::vector<Link> links = linksOf(*browser->document());
  auto egraph = std::find_if(links.begin(), links.end(), [](const Link& link) { return link.href == QLatin1String("egraph-view.md"); });
  ASSERT_NE(egraph, links.end()) << "the contents page links to the e-graph view's page";
  clickLink(browser, *egraph);
  ASSERT_TRUE(tessera::testing::waitUntil([&] { return browser->source() == UserGuide::pageUrl(QStringLiteral("egraph-view.md")); }, 5000))
      << browser->source().toString().toStdString();
  EXPECT_TRUE(browser->toPlainText().startsWith(QStringLiteral("The E-graph view")));
  // The page is rendered as Markdown, not shown as its source.
  EXPECT_FALSE(browser->toPlainText().contains(QStringLiteral("# The E-graph view")));

  EXPECT_TRUE(browser->isBackwardAvailable());
  browser->backward();
  EXPECT_EQ(browser->source(), UserGuide::pageUrl(QStringLiteral("index.md")));
  EXPECT_TRUE(browser->toPlainText().startsWith(QStringLiteral("Tessera user guide")));
  EXPECT_TRUE(browser->isForwardAvailable());
  browser->forward();
  EXPECT_EQ(browser->source(), UserGuide::pageUrl(QStringLiteral("egraph-view.md")));
  EXPECT_TRUE(browser->toPlainText().startsWith(QStringLiteral("The E-graph view")));

  // A page in notes/ links up a folder.
  guide->open(QStringLiteral("notes/lrn.md"));
  const std::vector<Link> noteLinks = linksOf(*browser->document());
  ASSERT_FALSE(noteLinks.empty());
  EXPECT_EQ(browser->source().resolved(QUrl(noteLinks.front().href)), UserGuide::pageUrl(QStringLiteral("index.md")));
}

TEST(UserGuide, ThisViewOpensThePageOfTheTabInFront) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  QAction* thisView = helpAction(window, "thisViewAction");
  const std::vector<std::pair<QString, QString>> pages = {{QStringLiteral("egraph"), QStringLiteral("egraph-view.md")},
                                                          {QStringLiteral("mcts"), QStringLiteral("mcts-view.md")},
                                                          {QStringLiteral("graph"), QStringLiteral("graph-view.md")},
                                                          {QStringLiteral("compare"), QStringLiteral("guided-search.md")}};
  for (const auto& [view, page] : pages) {
    window.showView(view);
    ASSERT_EQ(window.currentViewName(), view);
    thisView->trigger();
    ASSERT_NE(guideOf(window), nullptr);
    EXPECT_EQ(guideOf(window)->browser()->source(), UserGuide::pageUrl(page)) << view.toStdString();
    EXPECT_FALSE(guideOf(window)->browser()->toPlainText().isEmpty());
  }
  // One guide window, reused.
  EXPECT_EQ(window.findChildren<UserGuide*>().size(), 1);
}

TEST(UserGuide, AMissingPageSaysSo) {
  UserGuide guide;
  guide.open(QStringLiteral("no-such-page.md"));
  EXPECT_TRUE(guide.browser()->toPlainText().contains(QStringLiteral("no-such-page.md")));
}

TEST(UserGuide, TheCommandLineOpensAPageOrThePageOfTheView) {
  EXPECT_EQ(parseCommandLine({QStringLiteral("tessera"), QStringLiteral("--guide"), QStringLiteral("results.md")}).guide,
            QStringLiteral("results.md"));
  EXPECT_EQ(parseCommandLine({QStringLiteral("tessera"), QStringLiteral("--view"), QStringLiteral("mcts"), QStringLiteral("--guide"),
                              QStringLiteral("view")})
                .guide,
            QStringLiteral("view"));
  EXPECT_TRUE(parseCommandLine({QStringLiteral("tessera")}).guide.isEmpty());
}
