#pragma once
// Host side of time functions: packing a model's TimeFunction into the coefficient layout of
// evaluate_time_function, and evaluating one directly (reference path, tests).
#include <vector>

#include "model/model.hpp"
#include "model/time_function.hpp"

namespace myriad {

// Appends the packed coefficients of `f` (parameters applied) to `out`; returns the number of table points
// (0 for other kinds).
int pack_time_function(const TimeFunction& f, std::vector<double>& out);

// The TimeFunctionKind the packed coefficients are evaluated as: an input is a constant (gain * u).
int packed_time_function_kind(const TimeFunction& f);

// f at t; an input function is gain * the input's default (TimeFunction::value).
TimeValue evaluate_time_function(const TimeFunction& f, double t);

// Zero-tension angle an RSDA actually uses (docs/model-format.md, "RSDA"): with `shortest` the given angle is
// shifted by whole turns so that the deflection q_initial - angle lies in (-pi, pi].
double rsda_effective_zero_angle(double zero_angle, double q_initial, bool shortest);

}  // namespace myriad
