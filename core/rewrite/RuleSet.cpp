#include "rewrite/RuleSet.h"

#include "rewrite/PatternRule.h"
#include "support/Error.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessera {

void RuleSet::add(std::unique_ptr<Rule> rule) {
  if (find(rule->name())) throw Error("rule '" + rule->name() + "' is defined twice");
  rules_.push_back(std::move(rule));
}

const Rule* RuleSet::find(std::string_view name) const {
  for (const auto& rule : rules_)
    if (rule->name() == name) return rule.get();
  return nullptr;
}

size_t RuleSet::multiCount() const {
  size_t n = 0;
  for (const auto& rule : rules_) n += rule->isMulti() ? 1 : 0;
  return n;
}

void RuleSet::keepIf(const std::function<bool(const Rule&)>& keep) {
  std::erase_if(rules_, [&](const std::unique_ptr<Rule>& rule) { return !keep(*rule); });
}

void RuleSet::append(RuleSet other) {
  for (auto& rule : other.rules_) add(std::move(rule));
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

struct LineError {
  const std::string& source;
  int line;
  [[noreturn]] void fail(int column, const std::string& message) const {
    throw Error(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message);
  }
};

// "LHS => RHS" starting at column `column` of `line`.
std::pair<Pattern, Pattern> parseSide(std::string_view text, int line, int column, const LineError& where) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
    ++column;
  }
  size_t arrow = text.find("=>");
  if (arrow == std::string_view::npos) where.fail(column, "expected 'LHS => RHS'");
  try {
    Pattern lhs = parsePattern(text.substr(0, arrow), line, column);
    Pattern rhs = parsePattern(text.substr(arrow + 2), line, column + static_cast<int>(arrow) + 2);
    return {std::move(lhs), std::move(rhs)};
  } catch (const Error& e) {
    throw Error(where.source + ": " + e.what());
  }
}

std::unique_ptr<Rule> makeRule(std::string name, std::vector<std::string> labels, std::vector<std::pair<Pattern, Pattern>> sides,
                               const std::string& source, std::vector<std::pair<Pattern, Pattern>> guards = {}) {
  try {
    return std::make_unique<PatternRule>(std::move(name), std::move(labels), std::move(sides), std::move(guards));
  } catch (const Error& e) {
    throw Error(source + ": " + e.what());
  }
}

LineError where_(size_t, const std::string& source, int line) { return LineError{source, line}; }

// "type(?a) == type(?b) and type(?c) == type(?d)"
std::vector<std::pair<Pattern, Pattern>> parseGuards(std::string_view text, int line, int column, const LineError& where) {
  std::vector<std::pair<Pattern, Pattern>> guards;
  for (;;) {
    size_t andAt = text.find(" and ");
    std::string_view guard = trim(text.substr(0, andAt));
    size_t eq = guard.find("==");
    auto operand = [&](std::string_view side) -> Pattern {
      side = trim(side);
      if (side.substr(0, 5) != "type(" || side.back() != ')') where.fail(column, "a guard reads 'type(?a) == type(?b)'");
      try {
        return parsePattern(side.substr(5, side.size() - 6), line, column);
      } catch (const Error& e) {
        throw Error(where.source + ": " + e.what());
      }
    };
    if (eq == std::string_view::npos) where.fail(column, "a guard reads 'type(?a) == type(?b)'");
    guards.emplace_back(operand(guard.substr(0, eq)), operand(guard.substr(eq + 2)));
    if (andAt == std::string_view::npos) return guards;
    column += static_cast<int>(andAt) + 5;
    text = text.substr(andAt + 5);
  }
}

std::vector<std::string> splitLabels(std::string_view text) {
  std::vector<std::string> labels;
  std::string current;
  for (char c : text) {
    if (c == ',') {
      if (!trim(current).empty()) labels.emplace_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) labels.emplace_back(trim(current));
  return labels;
}

} // namespace

RuleSet parseRules(std::string_view text, const std::string& sourceName, RuleFileFormat format) {
  RuleSet rules;
  std::string stem = std::filesystem::path(sourceName).stem().string();
  std::istringstream in{std::string(text)};
  std::string rawLine;
  int lineNumber = 0;
  std::vector<std::pair<Pattern, Pattern>> pendingPair; // TensatMulti: first line of a pair
  int pendingLine = 0;
  while (std::getline(in, rawLine)) {
    ++lineNumber;
    std::string_view line = rawLine;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    LineError where{sourceName, lineNumber};
    int column = static_cast<int>(content.data() - line.data()) + 1;

    if (format == RuleFileFormat::TensatSingle) {
      rules.add(makeRule(stem + "-" + std::to_string(lineNumber), {"tensat"}, {parseSide(content, lineNumber, column, where)}, sourceName));
      continue;
    }
    if (format == RuleFileFormat::TensatMulti) {
      pendingPair.push_back(parseSide(content, lineNumber, column, where));
      if (pendingPair.size() == 1) {
        pendingLine = lineNumber;
        continue;
      }
      rules.add(makeRule(stem + "-" + std::to_string(pendingLine), {"tensat", "multi", "symmetric"}, std::move(pendingPair), sourceName));
      pendingPair.clear();
      continue;
    }

    // Tessera format: NAME [labels]: sides
    size_t colon = content.find(':');
    if (colon == std::string_view::npos || content.substr(0, colon).find('(') != std::string_view::npos)
      where.fail(column, "expected 'NAME [labels]: LHS => RHS'");
    std::string_view head = trim(content.substr(0, colon));
    std::vector<std::string> labels;
    if (size_t open = head.find('['); open != std::string_view::npos) {
      size_t close = head.find(']', open);
      if (close == std::string_view::npos) where.fail(column + static_cast<int>(open), "missing ']' after the labels");
      labels = splitLabels(head.substr(open + 1, close - open - 1));
      head = trim(head.substr(0, open));
    }
    if (head.empty()) where.fail(column, "the rule needs a name before ':'");
    for (char c : head)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
        where.fail(column, "rule name '" + std::string(head) + "' may only hold letters, digits, '-', '_' and '.'");
    std::vector<std::pair<Pattern, Pattern>> sides;
    std::string_view body = content.substr(colon + 1);
    int bodyColumn = column + static_cast<int>(colon) + 1;
    std::vector<std::pair<Pattern, Pattern>> guards;
    if (size_t where = body.find(" where "); where != std::string_view::npos) {
      guards = parseGuards(body.substr(where + 7), lineNumber, bodyColumn + static_cast<int>(where) + 7, where_(where, sourceName, lineNumber));
      body = body.substr(0, where);
    }
    size_t amp = body.find("&&");
    if (amp == std::string_view::npos) {
      sides.push_back(parseSide(body, lineNumber, bodyColumn, where));
    } else {
      sides.push_back(parseSide(body.substr(0, amp), lineNumber, bodyColumn, where));
      sides.push_back(parseSide(body.substr(amp + 2), lineNumber, bodyColumn + static_cast<int>(amp) + 2, where));
      if (std::find(labels.begin(), labels.end(), "multi") == labels.end()) labels.push_back("multi");
    }
    try {
      rules.add(makeRule(std::string(head), std::move(labels), std::move(sides), sourceName, std::move(guards)));
    } catch (const Error& e) {
      std::string message = e.what();
      if (message.rfind(sourceName, 0) == 0) throw;
      where.fail(column, message);
    }
  }
  if (!pendingPair.empty())
    throw Error(sourceName + ":" + std::to_string(pendingLine) + ":1: a multi-pattern rule needs a second line");
  return rules;
}

RuleSet loadRuleFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw errorInFile(path, "cannot open rule file");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  // A Tessera pack names its rules ("NAME: ..."); TENSAT's files start each line with '('.
  bool named = false;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    named = content.front() != '(';
    break;
  }
  RuleFileFormat format = RuleFileFormat::Tessera;
  if (!named)
    format = std::filesystem::path(path).filename().string().find("multi") != std::string::npos ? RuleFileFormat::TensatMulti
                                                                                               : RuleFileFormat::TensatSingle;
  return parseRules(text, path, format);
}

} // namespace tessera
