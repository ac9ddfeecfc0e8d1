#include "model/model_reading.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "model/linear_expression.hpp"

namespace myriad {

namespace {

// Strings that look like someone meant a non-finite number; worth a sharper message than "expected a number".
bool names_non_finite_number(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.erase(0, 1);
  return text == "nan" || text == "inf" || text == "infinity";
}

// At most a dozen names, in the order declared: enough to spot a typo without flooding the message.
std::string known_names(const NameTable& table, bool with_ground) {
  std::vector<std::pair<int, std::string>> ordered;
  for (const auto& entry : table.index) ordered.emplace_back(entry.second, entry.first);
  std::sort(ordered.begin(), ordered.end());
  std::vector<std::string> names;
  if (with_ground) names.push_back("ground");
  for (const auto& entry : ordered) names.push_back(entry.second);
  if (names.empty()) return "none are defined";
  const std::size_t shown = 12;
  if (names.size() > shown) {
    names.resize(shown);
    names.push_back("...");
  }
  return "known: " + join_names(names);
}

}  // namespace

bool is_parameter_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  // The "C" locale's isalnum: ASCII letters and digits only.
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); });
}

Number read_number(const JsonNode& node, const ReadContext& context) {
  const Json& json = node.json();
  if (json.is_number()) {
    const double value = json.get<double>();
    if (!std::isfinite(value)) node.fail("number is not finite");
    return literal_number(value);
  }
  if (!json.is_string()) node.fail_type("a number or a \"$parameter\" reference");
  const std::string text = json.get<std::string>();
  if (names_non_finite_number(text)) node.fail("non-finite number \"" + text + "\" (numbers must be finite)");
  if (text.find('$') == std::string::npos)
    node.fail("expected a number or a \"$parameter\" reference, got string \"" + text + "\"");
  LinearExpression expression;
  std::string reason;
  if (!parse_linear_expression(text, expression, reason))
    node.fail("invalid parameter expression \"" + text + "\": " + reason +
              " (a \"$name\" or a linear expression such as \"$a - 0.5*$b\")");
  Number number;
  number.constant = expression.constant;
  double value = expression.constant;
  for (const auto& term : expression.terms) {
    const auto found = context.parameter_index.find(term.first);
    if (found == context.parameter_index.end()) node.fail("undefined parameter '" + term.first + "'");
    const double default_value = (*context.parameters)[static_cast<std::size_t>(found->second)].value;
    number.terms.push_back({found->second, term.second});
    value += term.second * default_value;
  }
  // A plain "$name" stays a single reference (the common case, and what messages and tests expect).
  if (expression.constant == 0.0 && number.terms.size() == 1 && number.terms[0].coefficient == 1.0) {
    number.parameter = number.terms[0].parameter;
    number.terms.clear();
  }
  if (!std::isfinite(value)) node.fail("expression \"" + text + "\" is not finite at the parameters' defaults");
  number.value = value;
  return number;
}

Number read_optional_number(const JsonNode& object, const std::string& key, double fallback,
                            const ReadContext& context) {
  return object.has(key) ? read_number(object.at(key), context) : literal_number(fallback);
}

Vector3 read_vector3(const JsonNode& node, const ReadContext& context) {
  const std::vector<JsonNode> items = node.elements(3, "numbers");
  return {read_number(items[0], context), read_number(items[1], context), read_number(items[2], context)};
}

Vector3 read_optional_vector3(const JsonNode& object, const std::string& key, const ReadContext& context) {
  return object.has(key) ? read_vector3(object.at(key), context) : Vector3{};
}

std::vector<Number> read_numbers(const JsonNode& node, std::size_t count, const std::string& what,
                                 const ReadContext& context) {
  std::vector<Number> numbers;
  for (const JsonNode& item : node.elements(count, what)) numbers.push_back(read_number(item, context));
  return numbers;
}

std::string read_entry_name(const JsonNode& entry, NameTable& table, int index) {
  const JsonNode node = entry.at("name");
  const std::string name = node.as_string();
  if (name.empty()) node.fail("name must not be empty");
  const auto inserted = table.index.emplace(name, index);
  if (!inserted.second)
    node.fail("duplicate " + table.kind + " name '" + name + "' (first at " + table.section + "/" +
              std::to_string(inserted.first->second) + ")");
  return name;
}

int resolve_name(const JsonNode& node, const NameTable& table, bool allow_ground) {
  const std::string name = node.as_string();
  if (table.has_ground && name == "ground") {
    if (allow_ground) return -1;
    node.fail("expected a " + table.kind + " name, got 'ground' (the fixed world frame is not allowed here)");
  }
  const auto found = table.index.find(name);
  if (found == table.index.end())
    node.fail("unknown " + table.kind + " '" + name + "' (" +
              known_names(table, table.has_ground && allow_ground) + ")");
  return found->second;
}

int read_choice(const JsonNode& node, const std::vector<std::string>& choices, const std::string& what) {
  const std::string text = node.as_string();
  const auto found = std::find(choices.begin(), choices.end(), text);
  if (found == choices.end())
    node.fail("unknown " + what + " '" + text + "' (expected one of: " + join_names(choices) + ")");
  return static_cast<int>(found - choices.begin());
}

}  // namespace myriad
