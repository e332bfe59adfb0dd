// Rule patterns in TENSAT's s-expression syntax: `(conv2d 1 1 0 2 ?x ?w)`. A pattern is a tree of
// ops, integer literals and variables; it knows where in its file it came from.
// Tessera extends the syntax for IR ops (capitalised names) with attributes:
// `(Conv@c{activation=2, strides=[2,2]} ?x ?w ?b)` binds the matched node's attributes to `c`
// (reused on the right-hand side) and requires or sets the listed values; a value with a '.' or an
// exponent is a float (`Clip{min=0.0, max=6.0}`).
// Constants: `#3` or `#0.5` is a one-element float weight of that value (matched within a relative
// 1e-6, built as a new weight); `#?s` is a variable that only binds a one-element weight, and `$?b`
// one that only binds a value computed from weights alone (a bias, not an activation).
#pragma once

#include "ir/Attributes.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct SourceLocation {
  int line = 0;
  int column = 0;
};

struct Pattern {
  enum class Kind : uint8_t { Variable, Number, Op, Scalar };
  Kind kind = Kind::Op;
  std::string name; // op name, or the variable's name without '?'
  int64_t number = 0;
  double scalar = 0;         // Scalar: the constant's value
  bool scalarWeight = false; // Variable written `#?s`: binds only a one-element weight
  bool weightOnly = false;   // Variable written `$?b`: binds only a value computed from weights alone
  std::vector<Pattern> args;
  std::string attributeBinding;                               // "c" in Conv@c
  std::vector<std::pair<std::string, AttrValue>> attributes; // {k=v}: int64, float or a list of either
  SourceLocation location;

  std::string toString() const;
  // Variables in order of first appearance.
  std::vector<std::string> variables() const;
};

// Parses one pattern. Throws tessera::Error "line L, column C: problem" (columns are 1-based and
// offset by `startColumn`, so callers can parse a piece of a longer line).
Pattern parsePattern(std::string_view text, int line = 1, int startColumn = 1);

// A constant as patterns write it after '#': the shortest text that reads back as the same float.
std::string formatScalar(double value);

} // namespace tessera
