#pragma once
// A one-degree-of-freedom model (a body on a slide, tests of force elements) probed at one state (q, v): its
// acceleration on the fast path and on the reference path, and the exact Jacobians of the second-order view.
#include <Eigen/Dense>
#include <vector>

#include "dynamics/articulated_body.hpp"
#include "dynamics/tree_chart.hpp"
#include "dynamics/tree_second_order.hpp"
#include "reference/reference_dynamics.hpp"
#include "support/model_fixture.hpp"

namespace myriad::testing {

struct SlideProbe {
  bool ok = false;
  double fast = 0.0, reference = 0.0;  // q''
  double f = 0.0, J1 = 0.0, J2 = 0.0;  // q'' and its derivatives by q and v from the Jacobian evaluation
};

inline SlideProbe probe_slide(const Instance& inst, double q0, double v0) {
  SlideProbe p;
  Instance scratch(inst.model);
  std::vector<unsigned char> buffer(tree_second_order_bytes(*inst.compiled));
  std::vector<double> base_q(4);
  TreeSecondOrder<const double*> system = make_tree_second_order(*inst.compiled, inst.k(), base_q.data(), buffer.data());
  // Arrays with room beyond nq = nv = 1: chart_from_q's joint cases copy up to a rotation's three entries.
  double q[4] = {q0}, v[4] = {v0}, qdd[4] = {0.0}, x[4] = {0.0}, w[4] = {v0}, f[4], J1[4], J2[4], f_t[4];
  p.ok = forward_dynamics(*inst.compiled, inst.k(), 0.0, q, v, scratch.w, qdd);
  Eigen::VectorXd q_ref(1), v_ref(1);
  q_ref << q0;
  v_ref << v0;
  p.reference = reference::forward_dynamics(inst.model, 0.0, q_ref, v_ref)[0];
  chart_from_q(*inst.compiled, q, base_q.data(), x);
  p.ok = p.ok && system.jacobians(0.0, x, w, f, J1, J2, f_t);
  p.fast = qdd[0];
  p.f = f[0];
  p.J1 = J1[0];
  p.J2 = J2[0];
  return p;
}

}  // namespace myriad::testing
