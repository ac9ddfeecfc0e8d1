#include "constraints/assembly_diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "constraints/constraint_equations.hpp"
#include "model/number_text.hpp"

namespace myriad::constraints {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// The loops and drivers of a model in row order, and the entry of each row.
struct Entries {
  std::vector<std::string> pointers;  // per entry
  std::vector<std::string> labels;    // per entry: "loop 'closure'", "driver 'crank'"
  std::vector<int> of_row;            // per row: index of its entry
};

Entries entries_of(const Model& model) {
  Entries entries;
  const std::vector<std::string> row_pointers = constraint_pointers(model);
  for (size_t l = 0; l < model.loops.size(); ++l) {
    entries.pointers.push_back(row_pointers[entries.of_row.size()]);
    entries.labels.push_back("loop '" + model.loops[l].name + "'");
    entries.of_row.insert(entries.of_row.end(), static_cast<size_t>(loop_equation_count(model.loops[l].type)),
                          static_cast<int>(l));
  }
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    entries.pointers.push_back(row_pointers[entries.of_row.size()]);
    entries.labels.push_back("driver '" + model.drivers[d].name + "'");
    entries.of_row.push_back(static_cast<int>(model.loops.size() + d));
  }
  return entries;
}

// Newton stopped: the entries whose residual at the last iterate is above tolerance, largest first (a
// non-finite residual counts as the largest).
AssemblyBlame blame_residuals(const Model& model, double t, const AssemblyResult& result,
                              const AssemblyOptions& options, const Entries& entries) {
  const VectorXd phi = constraint_residual(model, t, result.q);
  std::vector<double> worst(entries.pointers.size(), 0.0);
  for (Eigen::Index r = 0; r < phi.size(); ++r) {
    const double size = std::isnan(phi[r]) ? std::numeric_limits<double>::infinity() : std::abs(phi[r]);
    double& entry = worst[static_cast<size_t>(entries.of_row[static_cast<size_t>(r)])];
    entry = std::max(entry, size);
  }
  std::vector<size_t> order;
  for (size_t e = 0; e < worst.size(); ++e)
    if (worst[e] > options.tolerance) order.push_back(e);
  if (order.empty()) return {entries.pointers.empty() ? "/loops" : entries.pointers[0], ""};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return worst[a] > worst[b]; });
  const size_t shown = std::min<size_t>(order.size(), 3);
  std::string detail = "; max |Phi| at the last iterate: ";
  for (size_t k = 0; k < shown; ++k)
    detail += (k > 0 ? ", " : "") + entries.labels[order[k]] + " (" + entries.pointers[order[k]] + ") " +
              number_text(worst[order[k]]);
  if (order.size() > shown)
    detail += ", and " + std::to_string(order.size() - shown) + " more above tolerance";
  return {entries.pointers[order[0]], detail};
}

// The first row of A that is a combination of the rows before it: Gaussian elimination in row order, each row
// reduced by the earlier independent ones and kept when what is left exceeds `tolerance`. -1 when none.
// O(rows * rank * cols).
Eigen::Index first_dependent_row(const MatrixXd& A, double tolerance) {
  std::vector<VectorXd> basis;  // reduced rows scaled to 1 at their pivot, zero at earlier pivots
  std::vector<Eigen::Index> pivots;
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    VectorXd row = A.row(r).transpose();
    for (size_t k = 0; k < basis.size(); ++k) row -= row[pivots[k]] * basis[k];
    Eigen::Index pivot = 0;
    const double largest = row.size() > 0 ? row.cwiseAbs().maxCoeff(&pivot) : 0.0;
    if (!(largest > tolerance)) return r;
    basis.push_back(row / row[pivot]);
    pivots.push_back(pivot);
  }
  return -1;
}

AssemblyBlame blame_rank(const Model& model, double t, const AssemblyResult& result,
                         const AssemblyOptions& options, const Entries& entries) {
  const ConstraintEvaluation c = evaluate_constraints(model, t, result.q, result.v);
  MatrixXd A = c.G;
  if (!result.dependent.empty()) {  // Newton had chosen its coordinates: Phi_u is what is singular
    A.resize(c.G.rows(), static_cast<Eigen::Index>(result.dependent.size()));
    for (size_t k = 0; k < result.dependent.size(); ++k)
      A.col(static_cast<Eigen::Index>(k)) = c.G.col(result.dependent[k]);
  }
  const double scale = c.G.size() > 0 ? c.G.cwiseAbs().maxCoeff() : 0.0;
  const Eigen::Index row = first_dependent_row(A, options.rank_tolerance * scale);
  if (row < 0) return {entries.pointers.empty() ? "/loops" : entries.pointers[0], ""};
  const size_t entry = static_cast<size_t>(entries.of_row[static_cast<size_t>(row)]);
  return {entries.pointers[entry],
          "; " + constraint_labels(model)[static_cast<size_t>(row)] + " (" + entries.pointers[entry] +
              ") is a combination of the equations before it" +
              (result.dependent.empty() ? "" : " in the dependent coordinates") + " at this configuration"};
}

}  // namespace

AssemblyBlame blame_assembly_failure(const Model& model, double t, const AssemblyResult& result,
                                     const AssemblyOptions& options) {
  const Entries entries = entries_of(model);
  switch (result.status) {
    case AssemblyStatus::ok:
      break;
    case AssemblyStatus::not_converged:
      return blame_residuals(model, t, result, options, entries);
    case AssemblyStatus::singular:
    case AssemblyStatus::redundant:
      return blame_rank(model, t, result, options, entries);
    case AssemblyStatus::too_many_constraints: {
      // The entry whose equations first outnumber the velocity coordinates.
      const int nv = static_cast<int>(result.v.size());
      const size_t row = std::min(static_cast<size_t>(nv), entries.of_row.size() - 1);
      const size_t entry = static_cast<size_t>(entries.of_row[row]);
      return {entries.pointers[entry],
              "; the equations outnumber the coordinates from " + entries.labels[entry] + " on"};
    }
    case AssemblyStatus::bad_independent:
      return {"/independent", ""};
  }
  return {entries.pointers.empty() ? "/loops" : entries.pointers[0], ""};
}

}  // namespace myriad::constraints
