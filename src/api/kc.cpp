// api::kinematics_and_compliance: the model at its parameter values on the K&C rig (analysis/kc_rig.hpp).
#include <stdexcept>

#include "analysis/kc_rig.hpp"
#include "api/model_impl.hpp"
#include "api/run_options.hpp"
#include "model/model_validation.hpp"

namespace myriad::api {

KcResult kinematics_and_compliance(const LoadedModel& loaded, const KcOptions& options) {
  if (!loaded.impl) throw std::invalid_argument("kc: the model is empty (not loaded)");
  const ModelImpl& mi = *loaded.impl;
  const std::vector<double> values = parameter_values_with(mi, options.overrides);
  validate_instance_values(mi.model, values, "the K&C rig's parameters");
  const Model model = apply_parameters(mi.model, values);
  myriad::KcOptions o;
  o.subsystem = options.subsystem;
  o.travel = options.travel;
  o.points = options.points;
  const KcCurves curves = myriad::kinematics_and_compliance(model, o);
  KcResult r;
  r.subsystem = curves.subsystem;
  r.side = curves.side;
  r.columns = curves.columns;
  r.units = curves.units;
  r.rows = curves.rows;
  return r;
}

}  // namespace myriad::api
