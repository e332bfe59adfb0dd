#include "rewrite/Pattern.h"

#include "support/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

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

  // An attribute value: an integer, or a float when it has a '.' or an exponent.
  struct AttributeNumber {
    double value = 0;
    bool floating = false;
  };
  AttributeNumber attributeNumber() {
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
                                   text_[pos_] == '-' || text_[pos_] == '+'))
      ++pos_;
    std::string digits(text_.substr(start, pos_ - start));
    if (digits.find_first_of(".eE") == std::string::npos) {
      pos_ = start;
      return {static_cast<double>(integer()), false};
    }
    std::optional<double> value = parseFloat(digits);
    if (!value) failAt(start, "expected a number, found '" + digits + "'");
    return {*value, true};
  }

  // "text": a string attribute (Gelu's approximate="tanh"); no escapes.
  std::string quotedString() {
    size_t start = pos_++;
    size_t close = text_.find('"', pos_);
    if (close == std::string_view::npos) failAt(start, "missing '\"' to end the string");
    std::string value(text_.substr(pos_, close - pos_));
    pos_ = close + 1;
    return value;
  }

  // {key=NUMBER, key=[NUMBER,...], key="text"}
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
      if (pos_ < text_.size() && text_[pos_] == '"') {
        pattern.attributes.emplace_back(std::move(key), quotedString());
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        else if (pos_ >= text_.size() || text_[pos_] != '}') fail("expected ',' or '}' in the attribute list");
        continue;
      }
      std::vector<AttributeNumber> values;
      bool list = pos_ < text_.size() && text_[pos_] == '[';
      if (list) {
        ++pos_;
        for (;;) {
          skipSpace();
          if (pos_ < text_.size() && text_[pos_] == ']') {
            ++pos_;
            break;
          }
          values.push_back(attributeNumber());
          skipSpace();
          if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        }
      } else {
        values.push_back(attributeNumber());
      }
      bool floating = std::any_of(values.begin(), values.end(), [](const AttributeNumber& v) { return v.floating; });
      AttrValue value;
      if (list && floating) {
        std::vector<float> floats;
        for (const AttributeNumber& v : values) floats.push_back(static_cast<float>(v.value));
        value = std::move(floats);
      } else if (list) {
        std::vector<int64_t> ints;
        for (const AttributeNumber& v : values) ints.push_back(static_cast<int64_t>(v.value));
        value = std::move(ints);
      } else if (floating) {
        value = static_cast<float>(values[0].value);
      } else {
        value = static_cast<int64_t>(values[0].value);
      }
      pattern.attributes.emplace_back(std::move(key), std::move(value));
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
    if (atom[0] == '#') return scalarAtom(atom, atomStart, pattern);
    if (atom[0] == '$') {
      if (atom.size() < 3 || atom[1] != '?') failAt(atomStart, "'" + std::string(atom) + "' is not a variable: write $?name");
      pattern.kind = Pattern::Kind::Variable;
      pattern.name = std::string(atom.substr(2));
      pattern.weightOnly = true;
      return pattern;
    }
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

  // `#VALUE` (a constant) or `#?name` (a variable bound only to a one-element weight).
  Pattern scalarAtom(std::string_view atom, size_t atomStart, Pattern& pattern) {
    if (atom.size() >= 2 && atom[1] == '?') {
      if (atom.size() == 2) failAt(atomStart, "variable needs a name after '#?'");
      pattern.kind = Pattern::Kind::Variable;
      pattern.name = std::string(atom.substr(2));
      pattern.scalarWeight = true;
      return pattern;
    }
    std::optional<double> value = parseFloat(std::string(atom.substr(1)));
    if (!value) failAt(atomStart, "'" + std::string(atom) + "' is not a constant: write #3, #0.5 or #?name");
    pattern.kind = Pattern::Kind::Scalar;
    pattern.scalar = *value;
    return pattern;
  }

  // A finite number written in full (strtod must read all of it).
  static std::optional<double> parseFloat(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_;
  int startColumn_;
};

// The shortest text that reads back as the same float.
std::string formatFloat(double value) {
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (static_cast<float>(std::strtod(buffer, nullptr)) == static_cast<float>(value)) break;
  }
  std::string s = buffer;
  return s;
}

// A float attribute keeps a '.' or an exponent so that it reads back as a float.
std::string formatAttributeFloat(double value) {
  std::string s = formatFloat(value);
  if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
  return s;
}

std::string formatAttribute(const AttrValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* f = std::get_if<float>(&value)) return formatAttributeFloat(*f);
  if (const auto* text = std::get_if<std::string>(&value)) return "\"" + *text + "\"";
  std::string s = "[";
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&value))
    for (size_t j = 0; j < ints->size(); ++j) s += (j ? "," : "") + std::to_string((*ints)[j]);
  if (const auto* floats = std::get_if<std::vector<float>>(&value))
    for (size_t j = 0; j < floats->size(); ++j) s += (j ? "," : "") + formatAttributeFloat((*floats)[j]);
  return s + "]";
}

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

std::string formatScalar(double value) { return formatFloat(value); }

Pattern parsePattern(std::string_view text, int line, int startColumn) {
  return PatternParser(text, line, startColumn).parseAll();
}

std::string Pattern::toString() const {
  switch (kind) {
  case Kind::Variable: return (scalarWeight ? "#?" : weightOnly ? "$?" : "?") + name;
  case Kind::Number: return std::to_string(number);
  case Kind::Scalar: return "#" + formatScalar(scalar);
  case Kind::Op: {
    std::string s = "(" + name;
    if (!attributeBinding.empty()) s += "@" + attributeBinding;
    if (!attributes.empty()) {
      s += "{";
      for (size_t i = 0; i < attributes.size(); ++i) s += (i ? ", " : "") + attributes[i].first + "=" + formatAttribute(attributes[i].second);
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
