#pragma once
// The arithmetic of a study's derived parameters ("0.3 + $m_b * 9.81 / $k_s": a spring's free length that
// keeps every sampled car in static equilibrium): numbers, $names, + - * / ^ (right-associative), unary
// minus, parentheses and the functions sqrt, exp, log, sin, cos, tan, abs. Parsed once into a postfix program
// over the names it uses; evaluated per instance in O(length).
#include <string>
#include <vector>

namespace myriad::study {

struct Expression {
  enum class Op : unsigned char {
    number,
    name,
    add,
    subtract,
    multiply,
    divide,
    power,
    negate,
    sqrt,
    exp,
    log,
    sin,
    cos,
    tan,
    abs
  };
  struct Step {
    Op op = Op::number;
    double value = 0.0;  // number
    int name = -1;       // name: index into names
  };
  std::vector<Step> program;       // postfix
  std::vector<std::string> names;  // the $names it reads, in order of first use
};

// Throws std::invalid_argument("at character K: reason") for text that is not such an expression.
Expression parse_expression(const std::string& text);

// values[j] is the value of names[j]. IEEE arithmetic: a division by zero gives inf, log(-1) NaN.
double evaluate(const Expression& expression, const std::vector<double>& values);

}  // namespace myriad::study
