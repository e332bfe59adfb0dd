#include "rewrite/Pattern.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

TEST(Pattern, ParsesNestedOpsNumbersAndVariables) {
  Pattern p = parsePattern("(conv2d 1 1 0 2 (relu ?x) ?w)");
  EXPECT_EQ(p.kind, Pattern::Kind::Op);
  EXPECT_EQ(p.name, "conv2d");
  ASSERT_EQ(p.args.size(), 6u);
  EXPECT_EQ(p.args[3].number, 2);
  EXPECT_EQ(p.args[4].name, "relu");
  EXPECT_EQ(p.args[5].kind, Pattern::Kind::Variable);
  EXPECT_EQ(p.toString(), "(conv2d 1 1 0 2 (relu ?x) ?w)");
  EXPECT_EQ(p.variables(), (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(parsePattern("  (ewadd ?a   ?a) ").variables(), std::vector<std::string>{"a"});
  EXPECT_EQ(parsePattern("(concat -1 2 ?a ?b)").args[0].number, -1);
}

TEST(Pattern, ErrorsGiveLineAndColumn) {
  auto message = [](const char* text) {
    try {
      parsePattern(text, 7, 1);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("(relu ?x"), "line 7, column 9: missing ')' for '(relu'");
  EXPECT_EQ(message("(relu ?x))"), "line 7, column 10: unexpected ')' after the pattern");
  EXPECT_EQ(message("(relu x)"), "line 7, column 7: 'x' is neither a number, a ?variable nor a parenthesised op");
  EXPECT_EQ(message("( )"), "line 7, column 3: expected an op name after '('");
  EXPECT_EQ(message("(relu ?)"), "line 7, column 7: variable needs a name after '?'");
  EXPECT_EQ(message(""), "line 7, column 1: expected a pattern, found the end");
}
