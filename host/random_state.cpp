#include "random_state.hpp"

#include <cmath>

#include "core/scalar.hpp"

namespace myriad::cli {

void random_state(const Model& model, const std::vector<double>& q_initial, std::mt19937_64& rng, std::vector<double>& q, std::vector<double>& v) {
  std::uniform_real_distribution<double> angle(-kPi, kPi), offset(-0.1, 0.1), rate(-2.0, 2.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  q.clear();
  v.clear();
  auto quaternion = [&] {
    double c[4], n = 0.0;
    for (double& x : c) {
      x = gauss(rng);
      n += x * x;
    }
    n = std::sqrt(n);
    for (double x : c) q.push_back(x / n);
  };
  auto near = [&](size_t index) { return q_initial[index] + offset(rng); };
  for (const Joint& joint : model.joints) {
    const size_t i = q.size();
    switch (joint.type) {
      case JointType::revolute: q.push_back(angle(rng)); break;
      case JointType::prismatic: q.push_back(near(i)); break;
      case JointType::cylindrical: q.insert(q.end(), {angle(rng), near(i + 1)}); break;
      case JointType::universal: q.insert(q.end(), {angle(rng), angle(rng)}); break;
      case JointType::spherical: quaternion(); break;
      case JointType::planar: q.insert(q.end(), {near(i), near(i + 1), angle(rng)}); break;
      case JointType::free:
        q.insert(q.end(), {near(i), near(i + 1), near(i + 2)});
        quaternion();
        break;
      case JointType::fixed: break;
    }
    for (int a = 0; a < joint_nv(joint.type); ++a) v.push_back(rate(rng));
  }
}

}  // namespace myriad::cli
