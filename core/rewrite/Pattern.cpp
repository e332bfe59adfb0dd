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

  std::string_view identifier() {
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  std::string_view opToken() {
    size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) && text_[pos_] != '(' &&
           text_[pos_] != ')' && text_[pos_] != '@' && text_[pos_] != '{')
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  int64_t integer() {
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    std::string_view digits = text_.substr(start, pos_ - start);
    if (digits.empty() || digits == "-" || digits.size() > 18) failAt(start, "expected an integer");
    return std::stoll(std::string(digits));
  }

  // {key=INT, key=[INT,...]}
  void parseAttributes(Pattern& pattern) {
    ++pos_; // '{'
    for (;;) {
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return;
      }
      std::string key(identifier());
      if (key.empty()) fail("expected an attribute name");
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '=') fail("expected '=' after attribute '" + key + "'");
      ++pos_;
      skipSpace();
      std::vector<int64_t> values;
      bool list = pos_ < text_.size() && text_[pos_] == '[';
      if (list) {
        ++pos_;
        for (;;) {
          skipSpace();
          if (pos_ < text_.size() && text_[pos_] == ']') {
            ++pos_;
            break;
          }
          values.push_back(integer());
          skipSpace();
          if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        }
      } else {
        values.push_back(integer());
      }
      pattern.attributes.emplace_back(std::move(key), std::move(values));
      pattern.attributeIsList.push_back(list);
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
      else if (pos_ >= text_.size() || text_[pos_] != '}') fail("expected ',' or '}' in the attribute list");
    }
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
      size_t opStart = pos_;
      std::string_view op = opToken();
      if (op.empty()) fail("expected an op name after '('");
      if (!std::isalpha(static_cast<unsigned char>(op[0]))) failAt(opStart, "op name '" + std::string(op) + "' must start with a letter");
      pattern.kind = Pattern::Kind::Op;
      pattern.name = std::string(op);
      if (pos_ < text_.size() && text_[pos_] == '@') {
        ++pos_;
        pattern.attributeBinding = std::string(identifier());
        if (pattern.attributeBinding.empty()) fail("expected an attribute variable name after '@'");
      }
      if (pos_ < text_.size() && text_[pos_] == '{') parseAttributes(pattern);
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
    if (!attributeBinding.empty()) s += "@" + attributeBinding;
    if (!attributes.empty()) {
      s += "{";
      for (size_t i = 0; i < attributes.size(); ++i) {
        s += (i ? ", " : "") + attributes[i].first + "=";
        std::string values;
        for (size_t j = 0; j < attributes[i].second.size(); ++j) values += (j ? "," : "") + std::to_string(attributes[i].second[j]);
        s += attributeIsList[i] ? "[" + values + "]" : values;
      }
      s += "}";
    }
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
