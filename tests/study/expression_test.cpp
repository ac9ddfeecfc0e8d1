// Derived parameters' expressions: precedence and associativity as in mathematics, the functions, names in order
// of first use, and every malformed text refused with the character at fault.
#include <gtest/gtest.h>

#include <cmath>

#include "study/expression.hpp"

namespace myriad::study {
namespace expression_test {

double value_of(const std::string& text, const std::vector<double>& values = {}) {
  return evaluate(parse_expression(text), values);
}

TEST(Expression, FollowsThePrecedenceAndAssociativityOfMathematics) {
  EXPECT_EQ(value_of("1 + 2 * 3"), 7.0);
  EXPECT_EQ(value_of("(1 + 2) * 3"), 9.0);
  EXPECT_EQ(value_of("8 / 4 / 2"), 1.0);   // left-associative
  EXPECT_EQ(value_of("2 ^ 3 ^ 2"), 512.0);  // right-associative
  EXPECT_EQ(value_of("-2 ^ 2"), -4.0);      // the power binds tighter than the sign
  EXPECT_EQ(value_of("2 ^ -1"), 0.5);
  EXPECT_EQ(value_of("10 - 4 - 3"), 3.0);
  EXPECT_EQ(value_of("1.5e3 * 2"), 3000.0);
  EXPECT_EQ(value_of("--3"), 3.0);
}

TEST(Expression, ReadsNamesInOrderOfFirstUse) {
  const Expression e = parse_expression("0.3 + $m_b * 9.81 / $k_s + 0 * $m_b");
  ASSERT_EQ(e.names, (std::vector<std::string>{"m_b", "k_s"}));
  EXPECT_DOUBLE_EQ(evaluate(e, {300.0, 16000.0}), 0.3 + 300.0 * 9.81 / 16000.0);
}

TEST(Expression, HasTheFunctionsOfTheFormat) {
  EXPECT_DOUBLE_EQ(value_of("sqrt(16) + exp(0) + log(1) + abs(-2)"), 7.0);
  EXPECT_NEAR(value_of("sin($x)^2 + cos($x)^2", {0.7}), 1.0, 1e-15);
  EXPECT_NEAR(value_of("tan(0.25)"), std::tan(0.25), 1e-16);
  EXPECT_TRUE(std::isinf(value_of("1 / 0")));
  EXPECT_TRUE(std::isnan(value_of("log(-1)")));
}

TEST(Expression, RefusesMalformedTextWithThePosition) {
  const auto message = [](const std::string& text) {
    try {
      parse_expression(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("1 +"), "at character 4: the expression ends where a value was expected");
  EXPECT_EQ(message("(1 + 2"), "at character 7: a '(' is not closed");
  EXPECT_EQ(message("2 * k_s"), "at character 5: unknown name 'k_s' (parameters are written $name; functions: sqrt, "
                                "exp, log, sin, cos, tan, abs)");
  EXPECT_EQ(message("$"), "at character 2: '$' must be followed by a parameter name");
  EXPECT_EQ(message("1 2"), "at character 3: unexpected '2'");
  EXPECT_EQ(message("sqrt 4"), "at character 6: sqrt needs its argument in parentheses");
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "1 + (";
  deep += "1";
  for (int i = 0; i < 70; ++i) deep += ")";
  EXPECT_NE(message(deep).find("nests deeper than 64"), std::string::npos);
}

}  // namespace expression_test
}  // namespace myriad::study
