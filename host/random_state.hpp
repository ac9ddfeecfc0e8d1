#pragma once
// Random joint states for checks, around the model's initial coordinates q_initial (nq): angles anywhere in
// [-pi, pi], translations within 0.1 m of the initial ones (springs keep a positive length), uniformly random
// unit quaternions, velocities in [-2, 2].
#include <random>
#include <vector>

#include "model/model.hpp"

namespace myriad::cli {

void random_state(const Model& model, const std::vector<double>& q_initial, std::mt19937_64& rng, std::vector<double>& q, std::vector<double>& v);

}  // namespace myriad::cli
