// `myriad modes MODEL`: the model linearized about static equilibrium (api::modes), printed as a table of damped
// modes (natural and damped frequency, damping ratio, the coordinate that moves most) and the undamped natural
// frequencies; optionally written as JSON.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "io/output_paths.hpp"
#include "parameter_overrides.hpp"
#include "api/myriad/myriad.hpp"

namespace myriad::cli {
namespace {

std::string fixed(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

nlohmann::json to_json(const api::ModesResult& r, const std::string& model_path) {
  nlohmann::json j;
  j["model"] = model_path;
  j["t"] = r.t;
  j["coordinates"] = r.coordinates;
  j["equilibrium"] = {{"q", r.q}, {"v", r.v}, {"newton_iterations", r.iterations}, {"residual", r.residual}};
  j["modes"] = nlohmann::json::array();
  for (const api::Mode& m : r.modes)
    j["modes"].push_back({{"oscillating", m.oscillating}, {"eigenvalue", {m.real, m.imag}},
                          {"natural_hz", m.natural_hz}, {"damped_hz", m.damped_hz},
                          {"damping_ratio", m.damping_ratio}, {"dominant", m.dominant}, {"shape", m.shape}});
  j["undamped"] = nlohmann::json::array();
  for (const api::UndampedMode& m : r.undamped)
    j["undamped"].push_back({{"frequency_hz", m.frequency_hz}, {"eigenvalue", m.eigenvalue},
                             {"dominant", m.dominant}, {"shape", m.shape}});
  return j;
}

}  // namespace

int run_modes(const ModesOptions& o) {
  const std::vector<std::string> paths =
      check_output_paths({{"--json", o.json}}, {{"the model file", o.model}}, false);
  const api::LoadedModel loaded = api::load_model(o.model);
  api::ModesOptions options;
  options.overrides = parse_overrides(o.params);
  options.t = o.t;
  options.at_initial_state = o.at_initial_state;
  const api::ModesResult r = api::modes(loaded, options);

  std::cout << "modes of " << o.model << " at t = " << r.t << "\n";
  if (o.at_initial_state)
    std::cout << "linearized at the initial state (max |acceleration| there " << fixed(r.residual, "%.3g") << ")\n";
  else
    std::cout << "static equilibrium: " << r.iterations << " Newton iteration" << (r.iterations == 1 ? "" : "s")
              << ", max |acceleration| left " << fixed(r.residual, "%.3g") << "\n";
  std::cout << "coordinates:";
  for (std::size_t i = 0; i < r.coordinates.size(); ++i) std::cout << (i ? ", " : " ") << r.coordinates[i];
  std::cout << "\n\ndamped modes (eigenvalues of the linearized system; natural = |eigenvalue| / 2 pi):\n";
  std::cout << "  mode  natural [Hz]  damped [Hz]  damping ratio  eigenvalue [1/s]             moves most\n";
  int index = 0;
  for (const api::Mode& m : r.modes) {
    ++index;
    const std::string eigenvalue =
        m.oscillating ? fixed(m.real, "%.6g") + " +- " + fixed(m.imag, "%.6g") + "i" : fixed(m.real, "%.6g");
    std::cout << "  " << fixed(index, "%-4.0f") << "  " << fixed(m.natural_hz, "%12.6g") << "  "
              << (m.oscillating ? fixed(m.damped_hz, "%11.6g") : std::string("          -")) << "  "
              << fixed(m.damping_ratio, "%13.6g") << "  " << eigenvalue
              << std::string(eigenvalue.size() < 29 ? 29 - eigenvalue.size() : 1, ' ') << m.dominant
              << (m.oscillating ? "" : " (not oscillating)") << "\n";
  }
  std::cout << "\nundamped natural frequencies (damping left out: eigenvalues of -M^-1 K):\n";
  std::cout << "  mode  frequency [Hz]  moves most\n";
  index = 0;
  for (const api::UndampedMode& m : r.undamped) {
    ++index;
    std::cout << "  " << fixed(index, "%-4.0f") << "  " << fixed(m.frequency_hz, "%14.6g") << "  " << m.dominant
              << (m.eigenvalue > 0.0 ? " (statically unstable)" : (m.frequency_hz == 0.0 ? " (no stiffness)" : ""))
              << "\n";
  }
  if (!paths[0].empty())
    write_file_atomically(paths[0], [&](std::ostream& out) { out << to_json(r, o.model).dump(2) << "\n"; });
  return 0;
}

}  // namespace myriad::cli
