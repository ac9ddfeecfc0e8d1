#pragma once
// Reading pieces of a model file shared by the section readers (bodies, joints, forces, outputs): numbers
// that may name a parameter, vectors, names and references by name, and choices from a fixed list. Internal
// to the loader (model_loader.cpp); errors are ModelErrors at the pointer of the offending value.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"

namespace myriad {

// Names declared so far in one section, with the position each was declared at (for "first at" messages).
struct NameTable {
  std::string kind;                  // "body", "joint", ... (used in messages)
  std::string section;               // "/bodies", ... (pointer prefix of the declaring entries)
  std::map<std::string, int> index;  // name -> index in the section (file order)
  bool has_ground = false;           // bodies: the reserved name `ground` refers to the world (-1)
};

// What the section readers share. Sections are read in the order parameters, bodies, joints, inputs, forces, outputs,
// and each reader may rely on the tables of the sections before it.
struct ReadContext {
  const std::vector<Parameter>* parameters = nullptr;
  std::map<std::string, int> parameter_index;
  NameTable bodies{"body", "/bodies", {}, true};
  NameTable joints{"joint", "/joints", {}};  // index = position in the final, parent-first joint order
  NameTable forces{"force", "/forces", {}};
  NameTable inputs{"input", "/inputs", {}};  // index = position in Model::inputs
  const std::vector<Input>* input_list = nullptr;         // once the inputs are read (before the forces)
  const std::vector<Joint>* joint_list = nullptr;         // final order, once the joints are read
  const std::vector<ForceElement>* force_list = nullptr;  // once the forces are read
};

// [A-Za-z_][A-Za-z0-9_]*
bool is_parameter_name(const std::string& name);

// A JSON number or "$name"; the latter reads as {parameter default, parameter index}. Non-finite values,
// unknown parameters and any other string fail.
Number read_number(const JsonNode& node, const ReadContext& context);
Number read_optional_number(const JsonNode& object, const std::string& key, double fallback,
                            const ReadContext& context);
Vector3 read_vector3(const JsonNode& node, const ReadContext& context);
Vector3 read_optional_vector3(const JsonNode& object, const std::string& key, const ReadContext& context);
std::vector<Number> read_numbers(const JsonNode& node, std::size_t count, const std::string& what,
                                 const ReadContext& context);

// The required, non-empty `name` of a section entry, registered in `table` as entry `index`; fails on a
// duplicate, naming where the first one is.
std::string read_entry_name(const JsonNode& entry, NameTable& table, int index);

// Resolves a reference by name; `ground` resolves to -1 when allowed. Fails naming the known names.
int resolve_name(const JsonNode& node, const NameTable& table, bool allow_ground = false);

// The position of the node's string in `choices`; fails listing them ("unknown joint type 'hinge' (expected
// one of: ...)").
int read_choice(const JsonNode& node, const std::vector<std::string>& choices, const std::string& what);

}  // namespace myriad
