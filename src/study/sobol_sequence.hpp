#pragma once
// The Sobol' low-discrepancy sequence (Sobol' 1967; Antonov & Saleev 1979 Gray-code order) with Joe & Kuo
// 2008 direction numbers, optionally scrambled (Owen 1998 / Matousek 1998 linear matrix scramble plus a
// digital shift).
#include <cstdint>
#include <vector>

namespace myriad::study {

constexpr int kSobolMaxDimensions = 1024;

// Points [skip, skip + rows) of the d-dimensional Sobol' sequence, row-major rows x dims, values in [0,1), 32
// bits. Unscrambled: equal to scipy.stats.qmc.Sobol(d, scramble=False).random(...) bit for bit (point 0 is
// all zeros). Scrambled: linear matrix scramble plus a digital shift (as scipy does, but with this function's
// own generator seeded by `seed`: splitmix64, one stream per dimension, so results are identical on every
// platform and compiler and a dimension's values do not depend on `dims`). Every 2^m-point block starting at
// a multiple of 2^m keeps the net property of the unscrambled sequence. Throws std::invalid_argument for dims
// outside [1, kSobolMaxDimensions], rows < 0, skip < 0, or skip + rows > 2^32.
std::vector<double> sobol_points(long long rows, int dims, bool scramble, std::uint64_t seed,
                                 long long skip = 0);

}  // namespace myriad::study
