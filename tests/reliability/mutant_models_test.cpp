// Mutants of the shipped models, made by a seeded generator (so every run checks the same ones): each is either
// refused with a ModelError naming the file and a JSON pointer, or it loads, and then its fast path agrees with
// the independent reference path at the initial state and a short run ends with a valid status and finite
// outputs. The hostile-tester round of issue 15 mutated 2,367 files by hand-made rules; these are the same kinds
// of change (numbers scaled to extremes, values of the wrong type, keys removed, names swapped, elements repeated).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "dynamics/articulated_body.hpp"
#include "ensemble/cpu_runner.hpp"
#include "model/model_error.hpp"
#include "model/json_reader.hpp"
#include "reference/reference_dynamics.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace mutant_models_test {

using Json = nlohmann::ordered_json;

void collect(const Json& node, const Json::json_pointer& at, std::vector<Json::json_pointer>& leaves,
             std::vector<Json::json_pointer>& containers) {
  if (node.is_object() || node.is_array()) {
    containers.push_back(at);
    if (node.is_object())
      for (const auto& item : node.items()) collect(item.value(), at / item.key(), leaves, containers);
    else
      for (std::size_t i = 0; i < node.size(); ++i) collect(node[i], at / i, leaves, containers);
  } else {
    leaves.push_back(at);
  }
}

// One random change of the kinds a careless or hostile editor makes.
Json mutate(const Json& original, std::mt19937_64& rng) {
  Json j = original;
  std::vector<Json::json_pointer> leaves, containers;
  collect(j, Json::json_pointer(), leaves, containers);
  auto pick = [&](const std::vector<Json::json_pointer>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  };
  const int kind = std::uniform_int_distribution<int>(0, 5)(rng);
  if (kind <= 1) {  // a number to an extreme
    std::vector<Json::json_pointer> numbers;
    for (const auto& p : leaves)
      if (j[p].is_number()) numbers.push_back(p);
    if (numbers.empty()) return j;
    const double factors[] = {-1.0, 0.0, 1e-9, 1e9, 1e200, 1e-200, 3.7, -1e-3};
    const auto p = pick(numbers);
    j[p] = j[p].get<double>() * factors[std::uniform_int_distribution<int>(0, 7)(rng)];
  } else if (kind == 2) {  // a value of the wrong type
    const Json replacements[] = {Json("abc"), Json("$nope"), Json(nullptr), Json::array(), Json::object(),
                                 Json(true), Json(-7)};
    j[pick(leaves)] = replacements[std::uniform_int_distribution<int>(0, 6)(rng)];
  } else if (kind == 3) {  // a key or an element removed
    const auto p = pick(leaves);
    if (p.empty()) return j;
    Json& parent = j[p.parent_pointer()];
    if (parent.is_object())
      parent.erase(p.back());
    else if (parent.is_array())
      parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
  } else if (kind == 4) {  // one name where another was (parents, children, joints referred to)
    std::vector<Json::json_pointer> strings;
    for (const auto& p : leaves)
      if (j[p].is_string()) strings.push_back(p);
    if (strings.size() < 2) return j;
    j[pick(strings)] = j[pick(strings)];
  } else {  // an element repeated (a body or joint twice: duplicate names, a second parent)
    std::vector<Json::json_pointer> arrays;
    for (const auto& p : containers)
      if (j[p].is_array() && !j[p].empty()) arrays.push_back(p);
    if (arrays.empty()) return j;
    Json& array = j[pick(arrays)];
    array.push_back(array[std::uniform_int_distribution<std::size_t>(0, array.size() - 1)(rng)]);
  }
  return j;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fast path's accelerations against the reference's at the initial state (trees), when both are finite.
// Returns false on a disagreement.
bool expect_fast_path_agrees(const Model& loaded, const std::string& name) {
  testing::Instance inst(loaded);
  if (inst.compiled->constraints.m > 0) return true;
  const int nv = inst.compiled->nv;
  std::vector<double> qdd(static_cast<size_t>(nv) + 1);
  const bool fast_ok = forward_dynamics(*inst.compiled, inst.k(), 0.0, inst.q.data(), inst.v.data(), inst.w, qdd.data());
  const Eigen::VectorXd a_ref = reference::forward_dynamics(
      inst.model, 0.0, Eigen::Map<Eigen::VectorXd>(inst.q.data(), inst.compiled->nq),
      Eigen::Map<Eigen::VectorXd>(inst.v.data(), nv));
  if (!fast_ok || !a_ref.allFinite()) return true;  // singular inertia: both paths must merely not crash
  const double scale = std::max(1.0, a_ref.cwiseAbs().maxCoeff());
  bool agree = true;
  for (int i = 0; i < nv; ++i)
    if (std::isfinite(qdd[static_cast<size_t>(i)])) {
      EXPECT_NEAR(qdd[static_cast<size_t>(i)], a_ref[i], 1e-6 * scale) << name << " coordinate " << i;
      agree = agree && std::abs(qdd[static_cast<size_t>(i)] - a_ref[i]) <= 1e-6 * scale;
    }
  return agree;
}

// One instance for ten RK4 steps: a valid status, and finite outputs when it is ok.
void expect_short_run_is_sane(const Model& loaded, const std::string& name) {
  const auto compiled = compile(loaded);
  const Ensemble ensemble = build_ensemble(loaded, *compiled, 1, nullptr, {});
  RunSpec spec;
  spec.method = Method::rk4;
  spec.h = 1e-3;
  const EnsembleResult result = run_ensemble_cpu(*compiled, ensemble, spec, {0.0, 0.005, 0.01}, 1);
  const int status = static_cast<int>(result.status[0]);
  EXPECT_TRUE(status >= 0 && status < kInstanceStatusCount) << name;
  if (result.status[0] == InstanceStatus::ok)
    for (double value : result.values) EXPECT_TRUE(std::isfinite(value)) << name;
}

TEST(Reliability, MutantsOfShippedModelsAreRefusedByNameOrAgreeWithTheReference) {
  std::mt19937_64 rng(15);
  int refused = 0, loaded_count = 0, refused_later = 0;
  for (const std::string& file : testing::shipped_model_files()) {
    const Json original = Json::parse(read_text(file));
    for (int m = 0; m < 40; ++m) {
      const std::string name = file.substr(file.rfind('/') + 1) + ".mutant" + std::to_string(m);
      const std::string text = mutate(original, rng).dump();
      Model model;
      try {
        model = load_model_text(text, name);
      } catch (const ModelError& e) {
        EXPECT_EQ(e.file(), name);
        EXPECT_EQ(e.pointer().rfind('/', 0), 0u) << e.what();
        ++refused;
        continue;
      }
      ++loaded_count;
      // A mutant that loads may still be refused when compiled or when its instance is built (assembly of a
      // loop, a per-instance value such as a negative mass): by a ModelError naming this file.
      try {
        if (!expect_fast_path_agrees(model, name)) {
          const std::string kept = ::testing::TempDir() + name + ".json";
          std::ofstream(kept) << text;
          ADD_FAILURE() << "the mutant is kept in " << kept;
        }
        expect_short_run_is_sane(model, name);
      } catch (const ModelError& e) {
        EXPECT_EQ(e.file(), name) << e.what();
        ++refused_later;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("instance"), std::string::npos) << name << ": " << e.what();
        ++refused_later;
      }
    }
  }
  std::printf("mutants: %d refused by the loader, %d loaded (%d of them refused when compiled or built)\n", refused,
              loaded_count, refused_later);
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded_count, 0);
}

}  // namespace mutant_models_test
}  // namespace myriad
