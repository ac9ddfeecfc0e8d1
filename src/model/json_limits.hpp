#pragma once
// The shape limits of a model's JSON text (model/model_limits.hpp): nesting depth, members of one object (and
// their key comparisons over all objects), elements of one array and values in the whole document, checked by
// one iterative pass over the text before
// nlohmann parses it. nlohmann copies and destroys documents recursively (a deep file overflows the stack)
// and ordered_json inserts keys by linear search (a wide object costs quadratic time); this pass costs
// neither.
#include <string>

namespace myriad {

// Throws ModelError(file, pointer, reason) at the first limit passed: the pointer is that of the container
// (for depth: of the value that nests too deep), the reason gives the limit and the line and column (1-based,
// in bytes) where it was passed. Malformed JSON is not diagnosed here: the pass skips what it does not
// understand and leaves the message to the parser. O(text size), O(depth limit) memory besides the text.
void check_json_limits(const std::string& text, const std::string& file);

}  // namespace myriad
