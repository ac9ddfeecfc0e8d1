#pragma once
// The joints of a model as a spanning tree rooted at ground (docs/model-format.md, "Joints"): checking that
// they form one, and ordering them parent-first. The joint order fixes the coordinate layout (q and v are the
// joints' coordinates concatenated in Model::joints order), so the order is deterministic: stable with
// respect to the file.
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad {

// Checks, for joints in file order (Joint::file_index = position in the file), that every body is the child
// of exactly one joint and that following parent joints from any body reaches ground. Throws ModelError(file,
// ...) naming the joint ("/joints/3/child": a second parent joint; "/joints/k/parent": the joint that closes
// a cycle) or the body ("/bodies/i": a body with no joint). O(joints + bodies).
void check_joint_tree(const std::vector<Joint>& joints, const std::vector<Body>& bodies,
                      const std::string& file);

// The joints of a valid tree reordered so that each joint comes after the joint whose child is its parent
// body, otherwise in file order (among the joints whose parent is placed, the earliest in the file goes
// first). O(n log n).
std::vector<Joint> order_parent_first(const std::vector<Joint>& joints, int body_count);

}  // namespace myriad
