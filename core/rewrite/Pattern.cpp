#include "rewrite/Pattern.h"

#include "support/Error.h"

#include <cctype>

namespace tessera {

namespace {

class PatternParser {
public:
  PatternParser(std::string_view text, int line, int startColumn) : text_(text), line_(line), startColumn_(startColumn) {}

  Pattern parseAll() {
    Pattern pattern = parseOne();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "' after the pattern");
    return pattern;
  }

private:
  [[noreturn]] void fail(const std::string& message) const { failAt(pos_, message); }
  [[noreturn]] void failAt(size_t pos, const std::string& message) const {
    throw Error("line " + std::to_string(line_) + ", column " + std::to_string(startColumn_ + static_cast<int>(pos)) + ": " +
                message);
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::string_view token() {
    size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) && text_[pos_] != '(' &&
           text_[pos_] != ')')
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  Pattern parseOne() {
    skipSpace();
    if (pos_ >= text_.size()) fail("expected a pattern, found the end");
    Pattern pattern;
    pattern.location = {line_, startColumn_ + static_cast<int>(pos_)};
    if (text_[pos_] == ')') fail("unexpected ')'");
    if (text_[pos_] == '(') {
      ++pos_;
      skipSpace();
      std::string_view op = token();
      if (op.empty()) fail("expected an op name after '('");
      if (!std::isalpha(static_cast<unsigned char>(op[0]))) fail("op name '" + std::string(op) + "' must start with a letter");
      pattern.kind = Pattern::Kind::Op;
      pattern.name = std::string(op);
      for (;;) {
        skipSpace();
        if (pos_ >= text_.size()) fail("missing ')' for '(" + pattern.name + "'");
        if (text_[pos_] == ')') {
          ++pos_;
          return pattern;
        }
        pattern.args.push_back(parseOne());
      }
    }
    size_t atomStart = pos_;
    std::string_view atom = token();
    if (atom[0] == '?') {
      if (atom.size() == 1) failAt(atomStart, "variable needs a name after '?'");
      pattern.kind = Pattern::Kind::Variable;
      pattern.name = std::string(atom.substr(1));
      return pattern;
    }
    size_t i = atom[0] == '-' ? 1 : 0;
    if (i == atom.size()) failAt(atomStart, "'-' is not a number");
    for (size_t j = i; j < atom.size(); ++j)
      if (!std::isdigit(static_cast<unsigned char>(atom[j])))
        failAt(atomStart, "'" + std::string(atom) + "' is neither a number, a ?variable nor a parenthesised op");
    if (atom.size() > 18) failAt(atomStart, "number '" + std::string(atom) + "' is too large");
    pattern.kind = Pattern::Kind::Number;
    pattern.number = std::stoll(std::string(atom));
    return pattern;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_;
  int startColumn_;
};

void collectVariables(const Pattern& pattern, std::vector<std::string>& out) {
  if (pattern.kind == Pattern::Kind::Variable) {
    for (const std::string& v : out)
      if (v == pattern.name) return;
    out.push_back(pattern.name);
    return;
  }
  for (const Pattern& arg : pattern.args) collectVariables(arg, out);
}

} // namespace

Pattern parsePattern(std::string_view text, int line, int startColumn) {
  return PatternParser(text, line, startColumn).parseAll();
}

std::string Pattern::toString() const {
  switch (kind) {
  case Kind::Variable: return "?" + name;
  case Kind::Number: return std::to_string(number);
  case Kind::Op: {
    std::string s = "(" + name;
    for (const Pattern& arg : args) s += " " + arg.toString();
    return s + ")";
  }
  }
  return {};
}

std::vector<std::string> Pattern::variables() const {
  std::vector<std::string> out;
  collectVariables(*this, out);
  return out;
}

} // namespace tessera
