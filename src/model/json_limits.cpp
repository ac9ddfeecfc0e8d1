#include "model/json_limits.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/json_reader.hpp"
#include "model/model_error.hpp"
#include "model/model_limits.hpp"

namespace myriad {

namespace {

// The text of a JSON string (between its quotes, escapes undone), for the pointer of a key. Malformed escapes
// are kept as written: the parser will report them.
std::string unescape_json_string(const std::string& text, std::size_t begin, std::size_t end) {
  std::string out;
  const auto append_utf8 = [&out](std::uint32_t c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  };
  const auto hex4 = [&text, end](std::size_t at, std::uint32_t& value) {
    if (at + 4 > end) return false;
    value = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = text[k];
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return false;
      value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return true;
  };
  for (std::size_t i = begin; i < end; ++i) {
    if (text[i] != '\\' || i + 1 >= end) {
      out += text[i];
      continue;
    }
    const char e = text[++i];
    std::uint32_t code = 0, low = 0;
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':
        if (!hex4(i + 1, code)) {
          out += "\\u";
          break;
        }
        i += 4;
        if (code >= 0xD800 && code < 0xDC00 && i + 2 < end && text[i + 1] == '\\' && text[i + 2] == 'u' &&
            hex4(i + 3, low) && low >= 0xDC00 && low < 0xE000) {
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        append_utf8(code);
        break;
      default:
        out += e;
        break;  // \" \\ \/ (and anything malformed)
    }
  }
  return out;
}

// One open array or object.
struct Level {
  bool is_object;
  std::size_t values = 0;  // values begun directly in it (object: member values; keys are not counted)
  bool expect_key;         // object: the next string is a key
  std::size_t key_begin = 0, key_end = 0;  // object: the current key's text, between its quotes
};

class Scanner {
 public:
  Scanner(const std::string& text, const std::string& file) : text_(text), file_(file) {}

  void run() {
    const std::size_t n = text_.size();
    std::size_t i = 0;
    while (i < n) {
      const char c = text_[i];
      switch (c) {
        case '\n':
          line_start_ = i + 1;
          ++line_;
          ++i;
          break;
        case ' ':
        case '\t':
        case '\r':
          ++i;
          break;
        case '{':
        case '[':
          begin_value(i);
          if (levels_.size() >= static_cast<std::size_t>(kMaxJsonDepth))
            fail(pointer(levels_.size()), i,
                 "JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels of arrays and objects");
          levels_.push_back({c == '{', 0, c == '{'});
          ++i;
          break;
        case '}':
        case ']':
          if (!levels_.empty()) levels_.pop_back();
          ++i;
          break;
        case ',':
          if (!levels_.empty() && levels_.back().is_object) levels_.back().expect_key = true;
          ++i;
          break;
        case ':':
          if (!levels_.empty() && levels_.back().is_object) levels_.back().expect_key = false;
          ++i;
          break;
        case '"': {
          const std::size_t begin = i + 1;
          std::size_t end = begin;
          while (end < n && text_[end] != '"') end += text_[end] == '\\' ? 2 : 1;
          end = end < n ? end : n;
          if (!levels_.empty() && levels_.back().is_object && levels_.back().expect_key) {
            levels_.back().key_begin = begin;
            levels_.back().key_end = end;
            levels_.back().expect_key = false;
          } else {
            begin_value(i);
          }
          i = end + 1;
          break;
        }
        default:  // a number, true, false, null, or something the parser will refuse
          begin_value(i);
          while (i < n && !ends_scalar(text_[i])) ++i;
          break;
      }
    }
  }

 private:
  static bool ends_scalar(char c) {
    return c == ',' || c == ']' || c == '}' || c == ':' || c == '[' || c == '{' || c == '"' || c == ' ' ||
           c == '\t' || c == '\r' || c == '\n';
  }

  // A value begins at byte `at` inside the innermost open container (or at the top level).
  void begin_value(std::size_t at) {
    if (!levels_.empty()) {
      Level& level = levels_.back();
      const std::size_t limit = level.is_object ? kMaxJsonObjectMembers : kMaxJsonArrayElements;
      if (++level.values > limit)
        fail(pointer(levels_.size() - 1), at,
             std::string(level.is_object ? "object has more than " : "array has more than ") +
                 std::to_string(limit) + (level.is_object ? " members" : " elements"));
      if (level.is_object && (key_comparisons_ += level.values - 1) > kMaxJsonKeyComparisons)
        fail(pointer(levels_.size() - 1), at,
             "the document's objects have too many members together: reading their keys takes more than " +
                 std::to_string(kMaxJsonKeyComparisons) +
                 " comparisons (n (n - 1) / 2 for an object of n members; this object passes the limit)");
    }
    if (++values_ > kMaxJsonValues)
      fail(pointer(levels_.size()), at,
           "the document has more than " + std::to_string(kMaxJsonValues) + " JSON values");
  }

  // The JSON pointer of the value being read in the outermost `depth` open containers.
  std::string pointer(std::size_t depth) const {
    std::string p;
    for (std::size_t k = 0; k < depth; ++k) {
      const Level& level = levels_[k];
      p += "/";
      if (level.is_object)
        p += json_pointer_token(unescape_json_string(text_, level.key_begin, level.key_end));
      else
        p += std::to_string(level.values > 0 ? level.values - 1 : 0);
    }
    return p.empty() ? "/" : p;
  }

  [[noreturn]] void fail(const std::string& at_pointer, std::size_t at, const std::string& reason) const {
    throw ModelError(file_, at_pointer,
                     reason + " (at line " + std::to_string(line_) + ", column " +
                         std::to_string(at - line_start_ + 1) + ")");
  }

  const std::string& text_;
  const std::string& file_;
  std::vector<Level> levels_;
  std::size_t values_ = 0;
  std::size_t key_comparisons_ = 0;  // sum over objects so far of n (n - 1) / 2
  std::size_t line_ = 1, line_start_ = 0;
};

}  // namespace

void check_json_limits(const std::string& text, const std::string& file) { Scanner(text, file).run(); }

}  // namespace myriad
