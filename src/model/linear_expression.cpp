#include "model/linear_expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "model/model_reading.hpp"

namespace myriad {

namespace {

void add_term(LinearExpression& e, const std::string& name, double coefficient) {
  for (auto it = e.terms.begin(); it != e.terms.end(); ++it) {
    if (it->first != name) continue;
    it->second += coefficient;
    if (it->second == 0.0) e.terms.erase(it);
    return;
  }
  if (coefficient != 0.0) e.terms.emplace_back(name, coefficient);
}

std::string exact_text(double value) {
  std::ostringstream s;
  s.precision(17);
  s << value;
  return s.str();
}

}  // namespace

LinearExpression constant_expression(double value) { return LinearExpression{value, {}}; }

LinearExpression operator+(const LinearExpression& a, const LinearExpression& b) {
  LinearExpression sum = a;
  sum.constant += b.constant;
  for (const auto& term : b.terms) add_term(sum, term.first, term.second);
  return sum;
}

LinearExpression operator*(double scale, const LinearExpression& a) {
  LinearExpression product;
  product.constant = scale * a.constant;
  for (const auto& term : a.terms) add_term(product, term.first, scale * term.second);
  return product;
}

LinearExpression operator-(const LinearExpression& a, const LinearExpression& b) { return a + (-1.0) * b; }

bool parse_linear_expression(const std::string& text, LinearExpression& result, std::string& reason) {
  result = LinearExpression{};
  std::size_t i = 0;
  const std::size_t n = text.size();
  const auto skip_blanks = [&] {
    while (i < n && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  bool first = true;
  skip_blanks();
  if (i == n) {
    reason = "empty expression";
    return false;
  }
  while (i < n) {
    double sign = 1.0;
    if (text[i] == '+' || text[i] == '-') {
      sign = text[i] == '-' ? -1.0 : 1.0;
      ++i;
      skip_blanks();
    } else if (!first) {
      reason = "expected + or - at character " + std::to_string(i + 1);
      return false;
    }
    first = false;
    double coefficient = 1.0;
    bool has_number = false;
    if (i < n && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
      const char* begin = text.c_str() + i;
      char* end = nullptr;
      coefficient = std::strtod(begin, &end);
      if (end == begin || !std::isfinite(coefficient)) {
        reason = "bad number at character " + std::to_string(i + 1);
        return false;
      }
      i += static_cast<std::size_t>(end - begin);
      has_number = true;
      skip_blanks();
      if (i < n && text[i] == '*') {
        ++i;
        skip_blanks();
        if (i == n || text[i] != '$') {
          reason = "expected a $parameter after * at character " + std::to_string(i + 1);
          return false;
        }
      } else {
        result.constant += sign * coefficient;
        continue;
      }
    }
    if (i == n || text[i] != '$') {
      reason = (has_number ? "expected a $parameter" : "expected a number or a $parameter") +
               std::string(" at character ") + std::to_string(i + 1);
      return false;
    }
    std::size_t end = ++i;
    while (end < n && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    const std::string name = text.substr(i, end - i);
    if (!is_parameter_name(name)) {
      reason = "invalid parameter reference at character " + std::to_string(i) +
               " (parameter names match [A-Za-z_][A-Za-z0-9_]*)";
      return false;
    }
    add_term(result, name, sign * coefficient);
    i = end;
    skip_blanks();
  }
  if (!std::isfinite(result.constant)) {
    reason = "the constant part is not finite";
    return false;
  }
  return true;
}

std::string linear_expression_text(const LinearExpression& e) {
  std::string text;
  for (const auto& term : e.terms) {
    const double c = term.second;
    if (!text.empty()) text += c < 0 ? " - " : " + ";
    else if (c < 0) text += "-";
    if (std::fabs(c) != 1.0) text += exact_text(std::fabs(c)) + "*";
    text += "$" + term.first;
  }
  if (e.constant != 0.0 || text.empty()) {
    if (text.empty()) return exact_text(e.constant);
    text += (e.constant < 0 ? " - " : " + ") + exact_text(std::fabs(e.constant));
  }
  return text;
}

}  // namespace myriad
