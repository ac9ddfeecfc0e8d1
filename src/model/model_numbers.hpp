#pragma once
// Visits every Number of a model, so code that must touch all numeric fields (applying parameters, finding what
// a parameter affects) cannot forget one.
#include "model/model.hpp"

namespace myriad {

template <class F>
void for_each_number(TimeFunction& f, F&& visit) {
  for (Number* n : {&f.t0, &f.t1, &f.value, &f.before, &f.after, &f.slope, &f.offset, &f.amplitude, &f.frequency,
                    &f.phase, &f.from, &f.to, &f.duration, &f.height, &f.gd_n0, &f.speed, &f.distance, &f.n_min,
                    &f.n_max, &f.seed, &f.coherence, &f.fade_in, &f.f0, &f.f1, &f.velocity})
    visit(*n);
  for (auto& point : f.table)
    for (auto& n : point) visit(n);
}

// Every time function of a model (const or not): ground motions, actuators, drivers.
template <class M, class F>
void for_each_time_function(M& model, F&& visit) {
  for (auto& f : model.forces) {
    visit(f.end1.motion);
    visit(f.end2.motion);
    visit(f.actuator);
  }
  for (auto& driver : model.drivers) visit(driver.function);
}

template <class F>
void for_each_number(Frame& frame, F&& visit) {
  for (auto& n : frame.origin) visit(n);
  Rotation& r = frame.rotation;
  for (auto& n : r.axis) visit(n);
  visit(r.angle);
  for (auto& n : r.rpy) visit(n);
  for (auto& n : r.quaternion) visit(n);
  for (auto& n : r.matrix) visit(n);
}

template <class F>
void for_each_number(Model& model, F&& visit) {
  for (auto& n : model.gravity) visit(n);
  for (Body& b : model.bodies) {
    visit(b.mass);
    for (auto& n : b.center_of_mass) visit(n);
    for (auto& n : b.inertia) visit(n);
  }
  for (Joint& j : model.joints) {
    for_each_number(j.parent_frame, visit);
    for_each_number(j.child_frame, visit);
    for (auto& n : j.axis) visit(n);
    for (auto& n : j.axis2) visit(n);
    for (auto& n : j.initial_position) visit(n);
    for (auto& n : j.initial_velocity) visit(n);
  }
  for (ForceElement& f : model.forces) {
    for (BodyPoint* end : {&f.end1, &f.end2}) {
      for (auto& n : end->point) visit(n);
      for (auto& n : end->motion_direction) visit(n);
      for_each_number(end->motion, visit);
    }
    visit(f.stiffness);
    visit(f.damping);
    visit(f.free_length);
    visit(f.preload);
    visit(f.zero_angle);
    for (auto* table : {&f.spring_table, &f.damper_table})
      for (auto& point : *table)
        for (auto& n : point) visit(n);
    for_each_number(f.actuator, visit);
    for_each_number(f.frame1, visit);
    for_each_number(f.frame2, visit);
    for (auto& n : f.bushing_stiffness) visit(n);
    for (auto& n : f.bushing_damping) visit(n);
    for (auto& n : f.tire_axis) visit(n);
    visit(f.tire_speed);
  }
  for (Output& o : model.outputs)
    for (auto& n : o.point) visit(n);
  for (Loop& loop : model.loops) {
    for_each_number(loop.frame1, visit);
    for_each_number(loop.frame2, visit);
    for (Vector3* v : {&loop.axis, &loop.axis2, &loop.point1, &loop.point2})
      for (auto& n : *v) visit(n);
    visit(loop.length);
    visit(loop.mass);
  }
  for (Driver& driver : model.drivers) for_each_number(driver.function, visit);
}

}  // namespace myriad
