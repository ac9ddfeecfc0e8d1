#pragma once
// Test support for the closed-loop work: the shipped loop models (parameters applied) and small models built
// from JSON text for the property tests.
#include <string>

#include "model/model.hpp"
#include "model/model_loader.hpp"

namespace myriad::testing {

inline Model literal_loop_model(const std::string& name) {
  const Model loaded =
      load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/" + name + ".json");
  return apply_parameters(loaded, default_parameter_values(loaded));
}

inline Model literal_model_text(const std::string& text) {
  const Model loaded = load_model_text(text, "test.json");
  return apply_parameters(loaded, default_parameter_values(loaded));
}

inline int joint_index(const Model& model, const std::string& name) {
  for (size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == name) return static_cast<int>(j);
  return -1;
}

// A spatial tree with every joint type that carries coordinates (free and spherical included) and one loop of
// every type plus two drivers; not assembled (the property tests need no consistent state).
inline const char* spatial_loop_model_text() {
  return R"({
    "format": "myriad-model", "version": 1, "gravity": [0.3, -1.2, -9.81],
    "bodies": [
      {"name": "base", "mass": 3, "center_of_mass": [0.1, 0.05, -0.02],
       "inertia": {"ixx": 0.4, "iyy": 0.5, "izz": 0.6, "ixy": 0.01}},
      {"name": "arm", "mass": 1, "center_of_mass": [0.3, 0, 0.01], "inertia": {"ixx": 0.02, "iyy": 0.1, "izz": 0.1}},
      {"name": "ball", "mass": 0.5, "center_of_mass": [0, 0.2, 0], "inertia": {"ixx": 0.03, "iyy": 0.01, "izz": 0.03}},
      {"name": "hooke", "mass": 0.8, "center_of_mass": [0.2, 0.1, 0], "inertia": {"ixx": 0.05, "iyy": 0.06, "izz": 0.07}},
      {"name": "sled", "mass": 2, "center_of_mass": [0, 0, 0.1], "inertia": {"ixx": 0.2, "iyy": 0.2, "izz": 0.3}},
      {"name": "slide", "mass": 0.4, "center_of_mass": [0.05, 0, 0], "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}},
      {"name": "tube", "mass": 0.6, "center_of_mass": [0, 0, 0.2], "inertia": {"ixx": 0.04, "iyy": 0.04, "izz": 0.01}}
    ],
    "joints": [
      {"name": "j_base", "type": "free", "parent": "ground", "child": "base"},
      {"name": "j_arm", "type": "revolute", "parent": "base", "child": "arm", "axis": [0, 1, 1],
       "parent_frame": {"origin": [0.2, 0, 0.1], "rotation": {"rpy": [0.1, 0.2, 0.3]}}},
      {"name": "j_ball", "type": "spherical", "parent": "arm", "child": "ball",
       "parent_frame": {"origin": [0.6, 0, 0]}, "child_frame": {"origin": [0, -0.1, 0]}},
      {"name": "j_hooke", "type": "universal", "parent": "ground", "child": "hooke", "axis": [1, 0, 0],
       "axis2": [0, 1, 0], "parent_frame": {"origin": [1, 1, 0]}},
      {"name": "j_sled", "type": "planar", "parent": "ground", "child": "sled", "axis": [0, 0, 1],
       "parent_frame": {"origin": [0, -1, 0]}},
      {"name": "j_slide", "type": "prismatic", "parent": "sled", "child": "slide", "axis": [1, 1, 0]},
      {"name": "j_tube", "type": "cylindrical", "parent": "hooke", "child": "tube", "axis": [0, 0, 1],
       "parent_frame": {"origin": [0.4, 0, 0]}}
    ],
    "loops": [
      {"name": "sph", "type": "cut_spherical", "body1": "ball", "frame1": {"origin": [0.1, 0.3, 0]},
       "body2": "hooke", "frame2": {"origin": [0.5, 0, 0.1]}},
      {"name": "rev", "type": "cut_revolute", "body1": "arm", "frame1": {"origin": [0.2, 0.1, 0],
       "rotation": {"axis": [1, 0, 0], "angle": 0.4}}, "body2": "sled", "frame2": {"origin": [0, 0.2, 0.3]},
       "axis": [0, 0.6, 0.8]},
      {"name": "uni", "type": "cut_universal", "body1": "ground", "frame1": {"origin": [0.5, 0.5, 0.5]},
       "body2": "ball", "frame2": {"origin": [0.1, 0, 0.1], "rotation": {"rpy": [0.3, 0, 0.1]}},
       "axis": [0, 0, 1], "axis2": [1, 0, 0]},
      {"name": "pla", "type": "cut_planar_revolute", "body1": "tube", "frame1": {"origin": [0, 0.1, 0.3],
       "rotation": {"rpy": [0.2, -0.1, 0.4]}}, "body2": "base", "frame2": {"origin": [-0.2, 0, 0]}, "axis": [0, 0, 1]},
      {"name": "dis", "type": "distance", "body1": "slide", "point1": [0.1, 0.2, 0], "body2": "ground",
       "point2": [2, 0, 1], "length": 1.5},
      {"name": "rod", "type": "rod", "body1": "base", "point1": [0.3, -0.1, 0.2], "body2": "tube",
       "point2": [0, 0.1, 0.4], "length": 1.2, "mass": 0.7}
    ],
    "drivers": [
      {"name": "d_arm", "joint": "j_arm", "function": {"type": "sine", "amplitude": 0.5, "frequency": 0.7,
       "phase": 0.2, "offset": 0.1}},
      {"name": "d_sled", "joint": "j_sled", "index": 1, "function": {"type": "smooth_step", "t0": 0, "t1": 2,
       "from": 0, "to": 1}}
    ]
  })";
}

}  // namespace myriad::testing
