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

TEST(Pattern, ParsesConstantsAndFloatAndStringAttributes) {
  Pattern p = parsePattern("(Div (Clip{max=6.0, min=0, pads=[0,1]} (Add ?x #3)) #0.16666667)");
  ASSERT_EQ(p.args.size(), 2u);
  EXPECT_EQ(p.args[1].kind, Pattern::Kind::Scalar);
  EXPECT_FLOAT_EQ(static_cast<float>(p.args[1].scalar), 1.0f / 6.0f);
  const Pattern& clip = p.args[0];
  ASSERT_EQ(clip.attributes.size(), 3u);
  EXPECT_EQ(clip.attributes[0].second, AttrValue(6.0f));
  EXPECT_EQ(clip.attributes[1].second, AttrValue(int64_t{0}));
  EXPECT_EQ(clip.attributes[2].second, AttrValue(std::vector<int64_t>{0, 1}));
  EXPECT_EQ(clip.args[0].args[1].scalar, 3.0);
  EXPECT_EQ(p.toString(), "(Div (Clip{max=6.0, min=0, pads=[0,1]} (Add ?x #3)) #0.16666667)");

  Pattern scale = parsePattern("(Mul #?s (Gelu{approximate=\"tanh\"} ?x))");
  EXPECT_EQ(scale.args[0].kind, Pattern::Kind::Variable);
  EXPECT_TRUE(scale.args[0].scalarWeight);
  EXPECT_FALSE(scale.args[1].args[0].scalarWeight);
  EXPECT_EQ(scale.args[1].attributes[0].second, AttrValue(std::string("tanh")));
  EXPECT_EQ(scale.variables(), (std::vector<std::string>{"s", "x"}));
  EXPECT_EQ(scale.toString(), "(Mul #?s (Gelu{approximate=\"tanh\"} ?x))");
  EXPECT_EQ(parsePattern("(Add ?x #-1e-05)").args[1].scalar, -1e-05);
}

TEST(Pattern, ConstantErrorsSayWhatIsWrong) {
  auto message = [](const char* text) {
    try {
      parsePattern(text, 2, 1);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("(Add ?x #three)"), "line 2, column 9: '#three' is not a constant: write #3, #0.5 or #?name");
  EXPECT_EQ(message("(Add ?x #)"), "line 2, column 9: '#' is not a constant: write #3, #0.5 or #?name");
  EXPECT_EQ(message("(Add ?x #?)"), "line 2, column 9: variable needs a name after '#?'");
  EXPECT_EQ(message("(Gelu{approximate=\"tanh} ?x)"), "line 2, column 19: missing '\"' to end the string");
  EXPECT_EQ(message("(Clip{max=6.0.1} ?x)"), "line 2, column 11: expected a number, found '6.0.1'");
}
