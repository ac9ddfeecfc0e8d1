#pragma once
// The results of a study as one HDF5 file (docs/study-format.md, "Results file"): parameters, per-instance
// status, failure time and work counters, KPIs, kept series, ensemble statistics per output time, Sobol
// indices and the provenance, written chunk by chunk. Every dataset is made full size when the file is
// created; /chunks/done says which chunks hold their rows, so an interrupted file is valid HDF5, reads as
// incomplete (attribute complete = 0, rows not yet run NaN) and a resumed run fills in exactly the rows that
// are missing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "study/hdf5_handles.hpp"

namespace myriad::study {

// Instance status codes 0 .. kStatusCodes - 1, named by api::status_name (0 ok).
constexpr std::size_t kStatusCodes = 6;

struct ResultsLayout {
  long long instances = 0, chunk = 0;                           // N; rows per chunk (the last may hold fewer)
  std::vector<std::string> parameter_names, parameter_units;    // P
  std::vector<std::string> derived_names, derived_expressions;  // D: /derived, computed from the parameters
  std::vector<std::string> kpi_names, kpi_units;                // K
  std::vector<std::string> series_signals;                      // the kept series, one N x T dataset each
  std::vector<double> series_times;                             // T

  long long chunks() const { return chunk > 0 ? (instances + chunk - 1) / chunk : 0; }
  long long chunk_begin(long long k) const { return k * chunk; }
  long long chunk_rows(long long k) const { return std::min(chunk, instances - k * chunk); }
};

// What one chunk of instances produced, rows [row0, row0 + rows).
struct ChunkRows {
  long long row0 = 0, rows = 0;
  std::vector<std::int32_t> status;  // rows: 0 ok, else the API's status code
  std::vector<double> failure_time;  // rows: the last output time reached by a failed instance; NaN if ok
  std::vector<long long> steps, rejected, function_evaluations, jacobian_evaluations,
      lu_factorizations;                    // rows
  std::vector<double> kpis;                 // rows x K
  std::vector<double> derived;              // rows x D
  std::vector<std::vector<double>> series;  // per kept signal: rows x T
  std::vector<double> series_times;         // T: their output times
  std::string backend, integrator;          // what ran them (not written as rows: the provenance)
  int threads = 1;
};

class ResultsFile {
 public:
  // A new file at `path` (replacing one there); `text_attributes` and `number_attributes` go on the root as
  // the provenance. Throws std::runtime_error naming the path.
  static ResultsFile create(const std::string& path, const ResultsLayout& layout,
                            const std::vector<std::pair<std::string, std::string>>& text_attributes,
                            const std::vector<std::pair<std::string, double>>& number_attributes);
  // An existing results file, for writing its missing chunks (resume) or for reading.
  static ResultsFile open(const std::string& path, bool writable);

  const ResultsLayout& layout() const { return layout_; }
  const std::string& path() const { return path_; }
  hid_t id() const { return file_.get(); }

  std::vector<std::uint8_t> chunks_done() const;
  void write_parameters(long long row0, long long rows, const double* values);  // rows x P
  void read_parameters(long long row0, long long rows, double* values) const;
  // The chunk's rows, then its mark in /chunks/done, then a flush: a chunk is either wholly there or not
  // marked.
  void write_chunk(long long k, const ChunkRows& rows);
  void read_kpi_rows(long long row0, long long rows, double* values) const;  // rows x K
  void read_series_rows(std::size_t signal, long long row0, long long rows,
                        double* values) const;  // rows x T
  void read_status_rows(long long row0, long long rows, std::int32_t* values) const;

  // /statistics/<signal>/{count,mean,sd,min,max} (T each); /sobol/<kpi>/{S1,S1_conf,ST,ST_conf} (P each).
  void write_statistics(std::size_t signal, const std::vector<double>& count, const std::vector<double>& mean,
                        const std::vector<double>& sd, const std::vector<double>& min,
                        const std::vector<double>& max);
  void write_sobol(const std::string& kpi, const std::vector<double>& s1, const std::vector<double>& s1_conf,
                   const std::vector<double>& st, const std::vector<double>& st_conf, int resamples,
                   double confidence);
  void set_text(const std::string& name, const std::string& value);
  void set_number(const std::string& name, double value);
  void set_integer(const std::string& name, long long value);
  std::string text(const std::string& name) const;
  void flush();
  void close();
  // Open again after close() (for writing). A run keeps its file closed between chunks: a crash or SIGKILL
  // while a chunk computes then leaves it whole, and only one that lands inside a write can damage it.
  void reopen();
  bool is_open() const { return static_cast<bool>(file_); }

 private:
  std::string path_;
  ResultsLayout layout_;
  h5::Handle file_;
};

}  // namespace myriad::study
