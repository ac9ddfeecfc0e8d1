#include "model/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

#include "model/json_limits.hpp"

namespace myriad {

namespace {

// Where the parser is, kept up to date from nlohmann's parse events so that errors raised in the middle of
// parsing (duplicate key, number overflow) can name the value they concern.
class ParsePosition {
 public:
  void open(bool is_object) { levels_.push_back({is_object, {}, {}, 0}); }
  void close() {
    levels_.pop_back();
    finish_value();
  }
  // Returns false when `key` was already used in the current object.
  bool enter_key(const std::string& key) {
    Level& level = levels_.back();
    level.key = key;
    return level.keys.insert(key).second;
  }
  void finish_value() {
    if (!levels_.empty() && !levels_.back().is_object) ++levels_.back().index;
  }
  std::string pointer() const {
    std::string p;
    for (const Level& level : levels_)
      p += "/" + (level.is_object ? json_pointer_token(level.key) : std::to_string(level.index));
    return p.empty() ? "/" : p;
  }

 private:
  struct Level {
    bool is_object;
    std::set<std::string> keys;
    std::string key;        // object: the key being read
    std::size_t index = 0;  // array: the element being read
  };
  std::vector<Level> levels_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; the bracket helps nobody reading a
// model.
std::string without_exception_tag(const std::string& what) {
  const std::size_t end = what.find("] ");
  return what.size() > 0 && what[0] == '[' && end != std::string::npos ? what.substr(end + 2) : what;
}

}  // namespace

Json parse_json_document(const std::string& text, const std::string& file) {
  check_json_limits(text, file);
  ParsePosition position;
  const Json::parser_callback_t track = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        position.open(true);
        break;
      case Json::parse_event_t::array_start:
        position.open(false);
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        position.close();
        break;
      case Json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!position.enter_key(key))
          throw ModelError(file, position.pointer(), "duplicate key '" + key + "' (keys must be unique)");
        break;
      }
      case Json::parse_event_t::value:
        position.finish_value();
        break;
    }
    return true;
  };
  try {
    return Json::parse(text, track);
  } catch (const Json::parse_error& e) {
    throw ModelError(
        file, "/",
        "malformed JSON: " + without_exception_tag(e.what()) + " (byte " + std::to_string(e.byte) + ")");
  } catch (const Json::out_of_range& e) {
    // nlohmann reports a number that overflows a double (1e999) this way, while the parser stands on it.
    throw ModelError(
        file, position.pointer(),
        "number is not finite: " + without_exception_tag(e.what()) + " (numbers must be finite)");
  }
}

std::string json_pointer_token(const std::string& key) {
  std::string token;
  for (char c : key) {
    if (c == '~')
      token += "~0";
    else if (c == '/')
      token += "~1";
    else
      token += c;
  }
  return token;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

JsonNode::JsonNode(const Json& value, std::string pointer, const std::string& file)
    : value_(&value), pointer_(std::move(pointer)), file_(&file) {}

void JsonNode::fail(const std::string& reason) const {
  throw ModelError(*file_, pointer_.empty() ? "/" : pointer_, reason);
}

void JsonNode::fail_type(const std::string& expected) const {
  fail("expected " + expected + ", got " + std::string(value_->type_name()));
}

JsonNode JsonNode::child(const Json& value, const std::string& token) const {
  return JsonNode(value, pointer_ + "/" + token, *file_);
}

void JsonNode::expect_object() const {
  if (!value_->is_object()) fail_type("an object");
}

void JsonNode::allow_keys(const std::vector<std::string>& allowed, const std::string& owner) const {
  expect_object();
  for (const auto& item : value_->items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
    child(item.value(), json_pointer_token(item.key()))
        .fail("unknown key '" + item.key() + "'" + (owner.empty() ? "" : " for " + owner) +
              " (expected one of: " + join_names(allowed) + ")");
  }
}

bool JsonNode::has(const std::string& key) const {
  expect_object();
  return value_->contains(key);
}

JsonNode JsonNode::at(const std::string& key) const {
  expect_object();
  const auto found = value_->find(key);
  if (found == value_->end())
    throw ModelError(*file_, pointer_ + "/" + json_pointer_token(key), "missing required key '" + key + "'");
  return child(*found, json_pointer_token(key));
}

std::vector<std::pair<std::string, JsonNode>> JsonNode::members() const {
  expect_object();
  std::vector<std::pair<std::string, JsonNode>> result;
  for (const auto& item : value_->items())
    result.emplace_back(item.key(), child(item.value(), json_pointer_token(item.key())));
  return result;
}

std::vector<JsonNode> JsonNode::elements() const {
  if (!value_->is_array()) fail_type("an array");
  std::vector<JsonNode> result;
  result.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i) result.push_back(child((*value_)[i], std::to_string(i)));
  return result;
}

std::vector<JsonNode> JsonNode::elements(std::size_t count, const std::string& what) const {
  if (!value_->is_array()) fail_type("an array of " + std::to_string(count) + " " + what);
  if (value_->size() != count)
    fail("expected an array of " + std::to_string(count) + " " + what + ", got " +
         std::to_string(value_->size()) + " element" + (value_->size() == 1 ? "" : "s"));
  return elements();
}

std::string JsonNode::as_string() const {
  if (!value_->is_string()) fail_type("a string");
  return value_->get<std::string>();
}

double JsonNode::as_plain_number() const {
  if (!value_->is_number()) fail_type("a number");
  const double value = value_->get<double>();
  if (!std::isfinite(value)) fail("number is not finite");
  return value;
}

int JsonNode::as_index() const {
  if (value_->is_number_unsigned()) {
    const auto value = value_->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) fail("integer out of range");
    return static_cast<int>(value);
  }
  if (value_->is_number_integer()) fail("expected a non-negative integer, got " + value_->dump());
  fail_type("a non-negative integer");
}

}  // namespace myriad
