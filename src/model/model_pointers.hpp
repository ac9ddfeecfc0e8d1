#pragma once
// JSON pointers of a loaded model's entries, for errors found after loading (compile(), assembly, the
// reference path) that must still name the field of the file responsible (docs/model-format.md, "Errors").
// Joints and loops use their position in the file (Joint::file_index, Loop::file_index: the loader reorders
// joints), falling back on their position in the model for models built in code.
#include <string>

#include "model/model.hpp"

namespace myriad {

inline std::string joint_pointer(const Model& model, int joint) {
  const int file_index = model.joints[static_cast<size_t>(joint)].file_index;
  return "/joints/" + std::to_string(file_index >= 0 ? file_index : joint);
}

inline std::string loop_pointer(const Model& model, int loop) {
  const int file_index = model.loops[static_cast<size_t>(loop)].file_index;
  return "/loops/" + std::to_string(file_index >= 0 ? file_index : loop);
}

inline std::string force_pointer(int force) { return "/forces/" + std::to_string(force); }

inline std::string driver_pointer(int driver) { return "/drivers/" + std::to_string(driver); }

}  // namespace myriad
