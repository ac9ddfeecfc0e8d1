#pragma once
// A thin typed-reading layer over nlohmann::ordered_json. Every value it hands out carries its JSON pointer
// (RFC 6901), so any check anywhere in the loader can throw a ModelError naming file, pointer and reason
// without threading paths by hand. Objects keep file order (ordered_json), which fixes the order of
// `parameters`.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/model_error.hpp"

namespace myriad {

using Json = nlohmann::ordered_json;

// Parses a whole document. Malformed JSON -> ModelError at "/" with the parser's line, column and byte; a
// number too large for a double or a key repeated within one object -> ModelError at that value's pointer
// (nlohmann would keep the last duplicate silently, and the format promises that no typo passes silently).
// Before parsing, the text is checked against the JSON limits of model/model_limits.hpp (check_json_limits:
// depth, members and elements per container, values), so parsing is linear and never deeply recursive.
// O(text size).
Json parse_json_document(const std::string& text, const std::string& file);

// `key` escaped as one reference token of a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string json_pointer_token(const std::string& key);

// "a, b, c": for "expected one of" lists in messages.
std::string join_names(const std::vector<std::string>& names);

// One value of a parsed document and where it is. Cheap to copy (a reference and a short string); the
// document and the file name must outlive it.
class JsonNode {
 public:
  JsonNode(const Json& value, std::string pointer, const std::string& file);

  const Json& json() const { return *value_; }
  const std::string& pointer() const { return pointer_; }  // "" is the document root
  const std::string& file() const { return *file_; }

  // Throws ModelError(file, pointer, reason); the root shows as "/".
  [[noreturn]] void fail(const std::string& reason) const;
  // "expected <expected>, got <JSON type>".
  [[noreturn]] void fail_type(const std::string& expected) const;

  // Objects. allow_keys() fails at the first key not in `allowed`, listing the allowed ones; `owner` ("a
  // spherical joint") says whose keys they are when that depends on a type.
  void expect_object() const;
  void allow_keys(const std::vector<std::string>& allowed, const std::string& owner = "") const;
  bool has(const std::string& key) const;
  JsonNode at(const std::string& key) const;  // fails "missing required key" (at the missing key's pointer)
  std::vector<std::pair<std::string, JsonNode>> members() const;  // in file order

  // Arrays. The counted form fails unless the array has exactly `count` elements, saying what they are.
  std::vector<JsonNode> elements() const;
  std::vector<JsonNode> elements(std::size_t count, const std::string& what) const;

  // Scalars.
  std::string as_string() const;
  double as_plain_number() const;  // a finite JSON number; no parameter reference
  int as_index() const;            // a non-negative JSON integer that fits an int

 private:
  JsonNode child(const Json& value, const std::string& token) const;

  const Json* value_;
  std::string pointer_;
  const std::string* file_;
};

}  // namespace myriad
