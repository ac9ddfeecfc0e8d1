#pragma once
// What a study computes once every chunk is in the file: the ensemble statistics of each kept series per
// output time, the Sobol indices of each KPI (Saltelli designs) and the KPI CSV beside the results file.
// Everything is read back from the file in chunks, in instance order: bounded memory, and the same numbers
// however the run was split, interrupted or resumed.
#include <string>

#include "study/results_file.hpp"
#include "study/study_spec.hpp"

namespace myriad::study {

// Per kept series and output time: count of finite values, mean, sample sd (n - 1), min, max (Welford's
// update in instance order). O(N T) per series.
void write_series_statistics(ResultsFile& file);

// Saltelli designs: S1 and ST of every KPI with bootstrap intervals (sobol_indices.hpp; the resampling seed
// is the sampler's). O(N K + resamples N P) per KPI.
void write_sobol_indices(ResultsFile& file, const StudySpec& spec);

// instance, status, the parameters, the KPIs: one row per instance. Written under a temporary name and
// renamed.
void write_kpi_csv(const ResultsFile& file, const std::string& path);

}  // namespace myriad::study
