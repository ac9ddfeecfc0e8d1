// libFuzzer target: arbitrary bytes as a model file. Loading may refuse the input by throwing (ModelError names
// the file, pointer and reason; compile() throws std::invalid_argument past its capacities); any other outcome
// (crash, sanitizer report, abort, stack overflow, out-of-memory, timeout) is a finding. Models that compile
// without loops also get one fast-path evaluation at their initial state, as `myriad check` does first.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "dynamics/articulated_body.hpp"
#include "dynamics/tree_workspace.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace {

void evaluate_at_initial_state(const myriad::Model& loaded) {
  const myriad::Model model = myriad::apply_parameters(loaded, myriad::default_parameter_values(loaded));
  const auto compiled = myriad::compile(model);
  // Loop models assemble their dependent coordinates first (host/command_check_loops.cpp); left out here.
  if (compiled->constraints.m > 0) return;
  std::vector<double> constants(static_cast<size_t>(compiled->n_constants));
  myriad::pack_constants(*compiled, model, constants.data());
  std::vector<double> q(static_cast<size_t>(compiled->nq)), v(static_cast<size_t>(compiled->nv));
  std::vector<double> qdd(static_cast<size_t>(compiled->nv));
  myriad::initial_state(model, q.data(), v.data());
  std::vector<unsigned char> buffer(myriad::tree_workspace_bytes<double>(*compiled));
  auto workspace = myriad::carve_tree_workspace<double>(*compiled, buffer.data(), nullptr);
  const double* k = constants.data();
  // A singular joint inertia or a non-finite result is a valid answer for a valid model; only how we get
  // there is under test.
  (void)myriad::forward_dynamics(*compiled, k, 0.0, q.data(), v.data(), workspace, qdd.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    evaluate_at_initial_state(myriad::load_model_text(text, "fuzz.json"));
  } catch (const std::exception&) {
    // Refused by name: the documented outcome for bad input.
  }
  return 0;
}
