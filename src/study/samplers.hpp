#pragma once
// Unit-cube and level designs for studies: Latin hypercube, full factorial, and Saltelli's cross matrices for
// Sobol' indices. (The Sobol' sequence itself is in study/sobol_sequence.hpp.)
#include <cstdint>
#include <vector>

namespace myriad::study {

// Latin hypercube (McKay, Beckman & Conover 1979): each column a random permutation of the N strata, a
// uniform point inside each stratum: u = (perm[i] + U) / N, in [0, 1). rows x dims row-major. Seeded and
// portable: splitmix64, one stream per column (a column does not depend on `dims`), a Fisher-Yates shuffle
// with unbiased integer draws. Throws std::invalid_argument for rows < 0 or dims < 0.
std::vector<double> latin_hypercube(long long rows, int dims, std::uint64_t seed);

// Full factorial over counts[j] levels per dimension: rows = product (throws std::invalid_argument when it
// passes 2^40 or a count is < 1), row-major rows x dims of level indices, the first dimension varying slowest
// (itertools.product order). No counts: one row of no columns, so an empty vector.
std::vector<long long> full_factorial(const std::vector<long long>& counts);

// Saltelli's cross matrices (Saltelli 2002; Saltelli et al. 2010) in SALib's order (SALib.sample.sobol.sample
// with calc_second_order=True, no groups): base is n x 2p row-major (A = columns [0,p), B = columns [p,2p));
// for each base row i the output has, in order: A_i, AB_i^1..AB_i^p (A_i with column j from B_i),
// BA_i^1..BA_i^p (B_i with column j from A_i), B_i. n (2p + 2) rows x p. Throws std::invalid_argument for n <
// 0, p < 1 or base.size() != n 2p.
std::vector<double> saltelli_rows(const std::vector<double>& base, long long n, int p);

}  // namespace myriad::study
