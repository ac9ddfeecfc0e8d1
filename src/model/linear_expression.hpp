#pragma once
// Linear expressions of parameters, the one kind of arithmetic a model file may write in a numeric field:
// "$a", "-$a", "$a - $b", "0.5*$a + 0.5*$b", "1 + $r". Templates (model/subsystems.hpp) need exactly this much:
// mirroring a hardpoint negates its y, a joint axis is the difference of two hardpoints, a tire's ground point is
// a hardpoint less a radius, and any of those may be a `$parameter` that an ensemble varies per instance.
// Anything non-linear (a rod's length from its end points) is evaluated per instance instead (a loop's
// "length": "design", docs/model-format.md).
#include <string>
#include <utility>
#include <vector>

namespace myriad {

struct LinearExpression {
  double constant = 0.0;
  std::vector<std::pair<std::string, double>> terms;  // (parameter name, coefficient), each name once, non-zero

  bool is_constant() const { return terms.empty(); }
};

LinearExpression operator+(const LinearExpression& a, const LinearExpression& b);
LinearExpression operator-(const LinearExpression& a, const LinearExpression& b);
LinearExpression operator*(double scale, const LinearExpression& a);
LinearExpression constant_expression(double value);

// Parses `text` (terms: a number, "$name", "number*$name" or "number * $name", joined by + and -, an optional
// leading sign, blanks anywhere between). False with `reason` set for anything else; every number finite. O(text).
bool parse_linear_expression(const std::string& text, LinearExpression& result, std::string& reason);

// The text parse_linear_expression reads back to the same expression (coefficients printed exactly, 17 digits).
std::string linear_expression_text(const LinearExpression& expression);

}  // namespace myriad
