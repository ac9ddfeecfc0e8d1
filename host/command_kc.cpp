// `myriad kc MODEL`: a template corner on the quasi-static K&C rig (api::kinematics_and_compliance): bump steer,
// bump camber, wheel-centre path, motion ratio, wheel load and rate and roll-centre height over a travel sweep, as
// CSV (stdout, or --out written atomically).
#include <iostream>
#include <ostream>

#include "api/myriad/myriad.hpp"
#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "io/output_paths.hpp"
#include "model/model_loader.hpp"
#include "parameter_overrides.hpp"
#include "text_output.hpp"

namespace myriad::cli {
namespace {

void write_curves(std::ostream& out, const api::KcResult& r) {
  for (std::size_t c = 0; c < r.columns.size(); ++c) out << (c ? "," : "") << r.columns[c];
  out << '\n';
  out.precision(17);
  for (const auto& row : r.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << row[c];
    out << '\n';
  }
}

}  // namespace

int run_kc(const KcOptions& o) {
  check_output_paths({{"--out", o.out}}, {{"the model file", o.model}}, false);
  const api::LoadedModel loaded = api::load_model(o.model);
  api::KcOptions options;
  options.subsystem = o.subsystem;
  options.travel = o.travel;
  options.points = o.points;
  options.overrides = parse_overrides(o.params);
  const api::KcResult r = api::kinematics_and_compliance(loaded, options);
  if (o.out.empty()) {
    write_curves(std::cout, r);
    return 0;
  }
  write_file_atomically(o.out, [&](std::ostream& out) { write_curves(out, r); });
  std::cout << "K&C of subsystem '" << r.subsystem << "' (" << r.side << "), travel +-" << o.travel << " m, "
            << r.rows.size() << " points; units:";
  for (std::size_t c = 0; c < r.columns.size(); ++c) std::cout << ' ' << r.columns[c] << " [" << r.units[c] << ']';
  std::cout << "\nwrote " << o.out << '\n';
  return 0;
}

int run_expand(const ExpandOptions& o) {
  check_output_paths({{"--out", o.out}}, {{"the model file", o.model}}, false);
  return print_or_write(o.out, expanded_model_text(o.model));
}

}  // namespace myriad::cli
