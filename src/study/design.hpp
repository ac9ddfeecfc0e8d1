#pragma once
// The study's design: the N x P table of parameter values its sampler gives, in the order the instances run.
// Rows are never dropped or reordered: row i is instance i, and the results file keeps them so.
#include <string>
#include <vector>

#include "study/study_spec.hpp"

namespace myriad::study {

struct Design {
  std::vector<std::string> names,
      units;                   // P (the table's columns: the study's parameters, or a CSV's header)
  long long rows = 0;          // N
  std::vector<double> values;  // N x P row-major
};

// Draws the unit-cube design of the sampler and maps each column through its distribution's inverse CDF; a
// table is read as given (CSV: header of names; NPY: float64 N x P in the parameters' order). Throws
// StudyFileError (an unreadable table at /sampler/file, a value that is not finite at the parameter's
// pointer). O(N P).
Design make_design(const StudySpec& spec);

// Rows of a study design: N, or N (2P + 2) for Saltelli's N base rows.
long long design_rows(const StudySpec& spec);

// An NPY file (format 1.0 / 2.0 / 3.0) of little-endian float64 in C order, rank 1 (a column) or 2. Throws
// std::runtime_error naming the file and what is wrong with it.
std::vector<double> read_npy(const std::string& path, long long& rows, long long& columns);

}  // namespace myriad::study
