#include "model/joint_tree.hpp"

#include <algorithm>
#include <functional>
#include <queue>

#include "model/model_error.hpp"

namespace myriad {

namespace {

std::string joint_pointer(int file_index, const char* key) {
  return "/joints/" + std::to_string(file_index) + "/" + key;
}

}  // namespace

void check_joint_tree(const std::vector<Joint>& joints, const std::vector<Body>& bodies,
                      const std::string& file) {
  const int body_count = static_cast<int>(bodies.size());
  std::vector<int> parent_joint(bodies.size(), -1);  // per body: index into `joints` of its parent joint
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) {
    const Joint& joint = joints[j];
    int& earlier = parent_joint[joint.child];
    if (earlier >= 0)
      throw ModelError(file, joint_pointer(joint.file_index, "child"),
                       "body '" + bodies[joint.child].name + "' already has parent joint '" +
                           joints[earlier].name + "' (/joints/" + std::to_string(joints[earlier].file_index) +
                           ")");
    earlier = j;
  }
  for (int b = 0; b < body_count; ++b)
    if (parent_joint[b] < 0)
      throw ModelError(
          file, "/bodies/" + std::to_string(b),
          "body '" + bodies[b].name +
              "' has no joint: add a free joint to ground (or a fixed joint to weld it in place)");

  // Every body has one parent joint, so walking parent joints from a body either reaches ground or comes back
  // to a body on the current walk: a cycle. Each body is walked once (state: 0 new, 1 on this walk, 2 done).
  std::vector<int> state(bodies.size(), 0);
  for (int start = 0; start < body_count; ++start) {
    std::vector<int> walk;
    int body = start;
    while (body >= 0 && state[body] == 0) {
      state[body] = 1;
      walk.push_back(body);
      body = joints[parent_joint[body]].parent;
    }
    if (body >= 0 && state[body] == 1) {
      // The cycle is the part of the walk from `body` on; report its joint that comes last in the file.
      const auto first = std::find(walk.begin(), walk.end(), body);
      std::string names;
      int closing = parent_joint[*first];
      for (auto it = first; it != walk.end(); ++it) {
        names += (names.empty() ? "'" : ", '") + bodies[*it].name + "'";
        if (joints[parent_joint[*it]].file_index > joints[closing].file_index) closing = parent_joint[*it];
      }
      throw ModelError(
          file, joint_pointer(joints[closing].file_index, "parent"),
          "joint '" + joints[closing].name + "' closes a cycle through bodies " + names +
              " (joints must form a tree rooted at ground; closing loops is the job of `loops`)");
    }
    for (int b : walk) state[b] = 2;
  }
}

std::vector<Joint> order_parent_first(const std::vector<Joint>& joints, int body_count) {
  std::vector<std::vector<int>> children_of(static_cast<size_t>(body_count) + 1);  // slot 0: ground
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) children_of[joints[j].parent + 1].push_back(j);
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready(std::greater<int>(), children_of[0]);
  std::vector<Joint> ordered;
  ordered.reserve(joints.size());
  while (!ready.empty()) {
    const int j = ready.top();
    ready.pop();
    ordered.push_back(joints[j]);
    for (int next : children_of[joints[j].child + 1]) ready.push(next);
  }
  return ordered;
}

}  // namespace myriad
