// Recursive descent over the grammar
//   sum     = product { ("+" | "-") product }
//   product = unary { ("*" | "/") unary }
//   unary   = "-" unary | power
//   power   = atom [ "^" unary ]
//   atom    = number | "$" name | function "(" sum ")" | "(" sum ")"
// emitting postfix steps, so evaluation is one pass over a stack.
#include "study/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace myriad::study {
namespace {

using Op = Expression::Op;
constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Expression parse() {
    sum();
    skip_space();
    if (at_ < text_.size()) fail(std::string("unexpected '") + text_[at_] + "'");
    int depth = 0, deepest = 0;  // evaluate's stack holds kMaxDepth values
    for (const Expression::Step& s : out_.program) {
      depth += s.op == Op::number || s.op == Op::name ? 1 : (s.op >= Op::negate ? 0 : -1);
      deepest = std::max(deepest, depth);
    }
    if (deepest > kMaxDepth) fail("nests deeper than " + std::to_string(kMaxDepth) + " pending values");
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw std::invalid_argument("at character " + std::to_string(at_ + 1) + ": " + reason);
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void emit(Op op) { out_.program.push_back({op, 0.0, -1}); }

  void sum() {
    product();
    for (;;) {
      if (take('+')) {
        product();
        emit(Op::add);
      } else if (take('-')) {
        product();
        emit(Op::subtract);
      } else {
        return;
      }
    }
  }
  void product() {
    unary();
    for (;;) {
      if (take('*')) {
        unary();
        emit(Op::multiply);
      } else if (take('/')) {
        unary();
        emit(Op::divide);
      } else {
        return;
      }
    }
  }
  void unary() {
    if (take('-')) {
      unary();
      emit(Op::negate);
      return;
    }
    power();
  }
  void power() {
    atom();
    if (take('^')) {  // right-associative, and -2^2 = -(2^2) as in mathematics
      unary();
      emit(Op::power);
    }
  }
  std::string word() {
    const std::size_t begin = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      ++at_;
    return text_.substr(begin, at_ - begin);
  }
  void atom() {
    skip_space();
    if (at_ >= text_.size()) fail("the expression ends where a value was expected");
    const char c = text_[at_];
    if (take('(')) {
      sum();
      if (!take(')')) fail("a '(' is not closed");
      return;
    }
    if (c == '$') {
      ++at_;
      const std::string name = word();
      if (name.empty()) fail("'$' must be followed by a parameter name");
      int index = -1;
      for (std::size_t j = 0; j < out_.names.size(); ++j)
        if (out_.names[j] == name) index = static_cast<int>(j);
      if (index < 0) {
        index = static_cast<int>(out_.names.size());
        out_.names.push_back(name);
      }
      out_.program.push_back({Op::name, 0.0, index});
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = text_.c_str() + at_;
      char* end = nullptr;
      const double value = std::strtod(begin, &end);
      if (end == begin) fail("a malformed number");
      at_ += static_cast<std::size_t>(end - begin);
      out_.program.push_back({Op::number, value, -1});
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      const std::size_t begin = at_;
      const std::string name = word();
      static const std::pair<const char*, Op> kFunctions[] = {
          {"sqrt", Op::sqrt}, {"exp", Op::exp}, {"log", Op::log}, {"sin", Op::sin},
          {"cos", Op::cos},   {"tan", Op::tan}, {"abs", Op::abs}};
      for (const auto& [function, op] : kFunctions)
        if (name == function) {
          if (!take('(')) fail(name + " needs its argument in parentheses");
          sum();
          if (!take(')')) fail("a '(' is not closed");
          emit(op);
          return;
        }
      at_ = begin;
      fail("unknown name '" + name +
           "' (parameters are written $name; functions: sqrt, exp, log, sin, cos, tan, abs)");
    }
    fail(std::string("unexpected '") + c + "'");
  }

  const std::string& text_;
  std::size_t at_ = 0;
  Expression out_;
};

}  // namespace

Expression parse_expression(const std::string& text) { return Parser(text).parse(); }

double evaluate(const Expression& expression, const std::vector<double>& values) {
  double stack[kMaxDepth];
  int top = 0;
  for (const Expression::Step& s : expression.program) {
    switch (s.op) {
      case Op::number:
        stack[top++] = s.value;
        continue;
      case Op::name:
        stack[top++] = values[static_cast<std::size_t>(s.name)];
        continue;
      default:
        break;
    }
    if (s.op >= Op::negate) {
      double& x = stack[top - 1];
      switch (s.op) {
        case Op::negate:
          x = -x;
          break;
        case Op::sqrt:
          x = std::sqrt(x);
          break;
        case Op::exp:
          x = std::exp(x);
          break;
        case Op::log:
          x = std::log(x);
          break;
        case Op::sin:
          x = std::sin(x);
          break;
        case Op::cos:
          x = std::cos(x);
          break;
        case Op::tan:
          x = std::tan(x);
          break;
        case Op::abs:
          x = std::fabs(x);
          break;
        default:
          break;
      }
      continue;
    }
    const double b = stack[--top];
    double& a = stack[top - 1];
    switch (s.op) {
      case Op::add:
        a += b;
        break;
      case Op::subtract:
        a -= b;
        break;
      case Op::multiply:
        a *= b;
        break;
      case Op::divide:
        a /= b;
        break;
      case Op::power:
        a = std::pow(a, b);
        break;
      default:
        break;
    }
  }
  return stack[0];
}

}  // namespace myriad::study
