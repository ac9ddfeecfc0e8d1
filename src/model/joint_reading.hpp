#pragma once
// Reading the `joints` section and the frames and rotations joints carry (docs/model-format.md, "Joints",
// "Frames and rotations"). Internal to the loader. Checks the structure of each joint on its own (type, keys,
// references, coordinate counts); the values a parameter can change are checked by model_validation, the tree
// formed by all joints by joint_tree.
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"
#include "model/model_reading.hpp"

namespace myriad {

Rotation read_rotation(const JsonNode& node, const ReadContext& context);
Frame read_frame(const JsonNode& node, const ReadContext& context);

// The joints in file order, Joint::file_index set, parent/child as body indices; registers the joint names in
// context.joints by file index. O(number of joints).
std::vector<Joint> read_joints(const JsonNode& joints, ReadContext& context);

}  // namespace myriad
