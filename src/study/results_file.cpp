// The results file's layout on the HDF5 C API. Chunked row storage sized to about 1 MiB per HDF5 chunk;
// series compressed (gzip 4 with the byte shuffle), whose output depends only on the bytes, so equal data
// gives equal datasets however the run was split or interrupted.
#include "study/results_file.hpp"

#include <algorithm>
#include <stdexcept>

#include "myriad/myriad.hpp"

namespace myriad::study {
namespace {

constexpr const char* kFormat = "myriad-study-results";
constexpr long long kFormatVersion = 1;

// Rows per HDF5 chunk: about 1 MiB of doubles, never more than the dataset has.
hsize_t storage_rows(long long instances, std::size_t columns) {
  const long long rows =
      std::max<long long>(1, (1LL << 17) / static_cast<long long>(std::max<std::size_t>(1, columns)));
  return static_cast<hsize_t>(std::min(rows, std::max<long long>(1, instances)));
}

hsize_t to_h(long long v) { return static_cast<hsize_t>(v); }

}  // namespace

ResultsFile ResultsFile::create(const std::string& path, const ResultsLayout& layout,
                                const std::vector<std::pair<std::string, std::string>>& text_attributes,
                                const std::vector<std::pair<std::string, double>>& number_attributes) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  ResultsFile f;
  f.path_ = path;
  f.layout_ = layout;
  const std::string& w = path;
  f.file_ = h5::checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, w,
                        "creating the file");
  const hid_t root = f.file_.get();
  h5::set_attribute(root, "format", std::string(kFormat), w);
  h5::set_attribute(root, "format_version", kFormatVersion, w);
  h5::set_attribute(root, "complete", 0LL, w);
  h5::set_attribute(root, "instances", layout.instances, w);
  h5::set_attribute(root, "chunk", layout.chunk, w);
  for (const auto& [name, value] : text_attributes) h5::set_attribute(root, name, value, w);
  for (const auto& [name, value] : number_attributes) h5::set_attribute(root, name, value, w);

  const hsize_t n = to_h(layout.instances);
  const std::size_t p = layout.parameter_names.size(), k = layout.kpi_names.size();
  {
    const h5::Handle d = h5::create_dataset(root, "parameters", H5T_IEEE_F64LE, {n, p},
                                            storage_rows(layout.instances, p), 0, w);
    h5::set_attribute(d.get(), "names", layout.parameter_names, w);
    h5::set_attribute(d.get(), "units", layout.parameter_units, w);
  }
  {
    const std::size_t d_count = layout.derived_names.size();
    const h5::Handle d = h5::create_dataset(root, "derived", H5T_IEEE_F64LE, {n, d_count},
                                            storage_rows(layout.instances, d_count), 0, w);
    h5::set_attribute(d.get(), "names", layout.derived_names, w);
    h5::set_attribute(d.get(), "expressions", layout.derived_expressions, w);
  }
  {
    const h5::Handle d =
        h5::create_dataset(root, "kpis", H5T_IEEE_F64LE, {n, k}, storage_rows(layout.instances, k), 0, w);
    h5::set_attribute(d.get(), "names", layout.kpi_names, w);
    h5::set_attribute(d.get(), "units", layout.kpi_units, w);
  }
  {
    const h5::Handle g = h5::create_group(root, "instances", w);
    const hsize_t rows = storage_rows(layout.instances, 1);
    const h5::Handle status = h5::create_dataset(g.get(), "status", H5T_STD_I32LE, {n}, rows, 0, w);
    std::vector<std::string> names;
    for (std::size_t code = 0; code < kStatusCodes; ++code)
      names.emplace_back(api::status_name(static_cast<int>(code)));
    h5::set_attribute(status.get(), "names", names, w);
    h5::create_dataset(g.get(), "failure_time", H5T_IEEE_F64LE, {n}, rows, 0, w);
    for (const char* counter :
         {"steps", "rejected", "function_evaluations", "jacobian_evaluations", "lu_factorizations"})
      h5::create_dataset(g.get(), counter, H5T_STD_I64LE, {n}, rows, 0, w);
  }
  {
    const h5::Handle g = h5::create_group(root, "series", w);
    h5::set_attribute(g.get(), "signals", layout.series_signals, w);
    const hsize_t t = layout.series_times.size();
    const h5::Handle time = h5::create_dataset(g.get(), "time", H5T_IEEE_F64LE, {t}, 0, 0, w);
    h5::write_rows(time.get(), H5T_NATIVE_DOUBLE, 0, t, layout.series_times.data(), w);
    h5::set_attribute(time.get(), "unit", std::string("s"), w);
    for (const std::string& s : layout.series_signals)
      h5::create_dataset(g.get(), s, H5T_IEEE_F64LE, {n, t}, storage_rows(layout.instances, t), 4, w);
  }
  {
    const h5::Handle g = h5::create_group(root, "chunks", w);
    const h5::Handle done =
        h5::create_dataset(g.get(), "done", H5T_STD_U8LE, {to_h(layout.chunks())}, 0, 0, w);
    h5::set_attribute(done.get(), "rows_per_chunk", layout.chunk, w);
  }
  h5::create_group(root, "statistics", w);
  h5::create_group(root, "sobol", w);
  f.flush();
  return f;
}

ResultsFile ResultsFile::open(const std::string& path, bool writable) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  ResultsFile f;
  f.path_ = path;
  const std::string& w = path;
  f.file_ = h5::checked(
      H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, w,
      "opening the file (not an HDF5 file, or one cut off inside a write: a crash there can damage "
      "it; remove it to start over)");
  const hid_t root = f.file_.get();
  if (!h5::has_attribute(root, "format") || h5::string_attribute(root, "format", w) != kFormat)
    throw std::runtime_error(path + ": not a Myriad study results file (no format attribute \"" + kFormat +
                             "\")");
  if (h5::integer_attribute(root, "format_version", w) != kFormatVersion)
    throw std::runtime_error(path + ": results format version " +
                             std::to_string(h5::integer_attribute(root, "format_version", w)) +
                             ", this Myriad reads " + std::to_string(kFormatVersion));
  ResultsLayout& l = f.layout_;
  l.instances = h5::integer_attribute(root, "instances", w);
  l.chunk = h5::integer_attribute(root, "chunk", w);
  {
    const h5::Handle d = h5::open_dataset(root, "parameters", w);
    l.parameter_names = h5::strings_attribute(d.get(), "names", w);
    l.parameter_units = h5::strings_attribute(d.get(), "units", w);
  }
  {
    const h5::Handle d = h5::open_dataset(root, "derived", w);
    l.derived_names = h5::strings_attribute(d.get(), "names", w);
    l.derived_expressions = h5::strings_attribute(d.get(), "expressions", w);
  }
  {
    const h5::Handle d = h5::open_dataset(root, "kpis", w);
    l.kpi_names = h5::strings_attribute(d.get(), "names", w);
    l.kpi_units = h5::strings_attribute(d.get(), "units", w);
  }
  {
    const h5::Handle g = h5::open_group(root, "series", w);
    l.series_signals = h5::strings_attribute(g.get(), "signals", w);
    const h5::Handle time = h5::open_dataset(g.get(), "time", w);
    l.series_times.resize(h5::dataset_dims(time.get(), w).at(0));
    h5::read_rows(time.get(), H5T_NATIVE_DOUBLE, 0, l.series_times.size(), l.series_times.data(), w);
  }
  return f;
}

std::vector<std::uint8_t> ResultsFile::chunks_done() const {
  std::vector<std::uint8_t> done(static_cast<std::size_t>(layout_.chunks()), 0);
  const h5::Handle d = h5::open_dataset(file_.get(), "chunks/done", path_);
  h5::read_rows(d.get(), H5T_NATIVE_UINT8, 0, done.size(), done.data(), path_);
  return done;
}

void ResultsFile::write_parameters(long long row0, long long rows, const double* values) {
  const h5::Handle d = h5::open_dataset(file_.get(), "parameters", path_);
  h5::write_rows(d.get(), H5T_NATIVE_DOUBLE, to_h(row0), to_h(rows), values, path_);
}

void ResultsFile::read_parameters(long long row0, long long rows, double* values) const {
  const h5::Handle d = h5::open_dataset(file_.get(), "parameters", path_);
  h5::read_rows(d.get(), H5T_NATIVE_DOUBLE, to_h(row0), to_h(rows), values, path_);
}

void ResultsFile::write_chunk(long long k, const ChunkRows& c) {
  const std::string& w = path_;
  const hid_t root = file_.get();
  const hsize_t r0 = to_h(c.row0), n = to_h(c.rows);
  const auto write = [&](const std::string& name, hid_t type, const void* data) {
    const h5::Handle d = h5::open_dataset(root, name, w);
    h5::write_rows(d.get(), type, r0, n, data, w);
  };
  write("instances/status", H5T_NATIVE_INT32, c.status.data());
  write("instances/failure_time", H5T_NATIVE_DOUBLE, c.failure_time.data());
  write("instances/steps", H5T_NATIVE_LLONG, c.steps.data());
  write("instances/rejected", H5T_NATIVE_LLONG, c.rejected.data());
  write("instances/function_evaluations", H5T_NATIVE_LLONG, c.function_evaluations.data());
  write("instances/jacobian_evaluations", H5T_NATIVE_LLONG, c.jacobian_evaluations.data());
  write("instances/lu_factorizations", H5T_NATIVE_LLONG, c.lu_factorizations.data());
  if (!layout_.kpi_names.empty()) write("kpis", H5T_NATIVE_DOUBLE, c.kpis.data());
  if (!layout_.derived_names.empty()) write("derived", H5T_NATIVE_DOUBLE, c.derived.data());
  for (std::size_t s = 0; s < layout_.series_signals.size(); ++s)
    write("series/" + layout_.series_signals[s], H5T_NATIVE_DOUBLE, c.series.at(s).data());
  // The data reaches the file before its chunk is marked done.
  flush();
  const h5::Handle done = h5::open_dataset(root, "chunks/done", w);
  const std::uint8_t one = 1;
  h5::write_rows(done.get(), H5T_NATIVE_UINT8, to_h(k), 1, &one, w);
  flush();
}

void ResultsFile::read_kpi_rows(long long row0, long long rows, double* values) const {
  if (layout_.kpi_names.empty()) return;
  const h5::Handle d = h5::open_dataset(file_.get(), "kpis", path_);
  h5::read_rows(d.get(), H5T_NATIVE_DOUBLE, to_h(row0), to_h(rows), values, path_);
}

void ResultsFile::read_series_rows(std::size_t signal, long long row0, long long rows, double* values) const {
  const h5::Handle d = h5::open_dataset(file_.get(), "series/" + layout_.series_signals.at(signal), path_);
  h5::read_rows(d.get(), H5T_NATIVE_DOUBLE, to_h(row0), to_h(rows), values, path_);
}

void ResultsFile::read_status_rows(long long row0, long long rows, std::int32_t* values) const {
  const h5::Handle d = h5::open_dataset(file_.get(), "instances/status", path_);
  h5::read_rows(d.get(), H5T_NATIVE_INT32, to_h(row0), to_h(rows), values, path_);
}

void ResultsFile::write_statistics(std::size_t signal, const std::vector<double>& count,
                                   const std::vector<double>& mean, const std::vector<double>& sd,
                                   const std::vector<double>& min, const std::vector<double>& max) {
  const std::string& w = path_;
  const h5::Handle statistics = h5::open_group(file_.get(), "statistics", w);
  const std::string& name = layout_.series_signals.at(signal);
  if (H5Lexists(statistics.get(), name.c_str(), H5P_DEFAULT) > 0)  // a finish that was interrupted, run again
    h5::check(H5Ldelete(statistics.get(), name.c_str(), H5P_DEFAULT), w, "replacing statistics/" + name);
  const h5::Handle g = h5::create_group(statistics.get(), name, w);
  const hsize_t t = layout_.series_times.size();
  const std::pair<const char*, const std::vector<double>*> columns[] = {
      {"count", &count}, {"mean", &mean}, {"sd", &sd}, {"min", &min}, {"max", &max}};
  for (const auto& [column, values] : columns) {
    const h5::Handle d = h5::create_dataset(g.get(), column, H5T_IEEE_F64LE, {t}, 0, 0, w);
    h5::write_rows(d.get(), H5T_NATIVE_DOUBLE, 0, t, values->data(), w);
  }
}

void ResultsFile::write_sobol(const std::string& kpi, const std::vector<double>& s1,
                              const std::vector<double>& s1_conf, const std::vector<double>& st,
                              const std::vector<double>& st_conf, int resamples, double confidence) {
  const std::string& w = path_;
  const h5::Handle sobol = h5::open_group(file_.get(), "sobol", w);
  if (H5Lexists(sobol.get(), kpi.c_str(), H5P_DEFAULT) > 0)
    h5::check(H5Ldelete(sobol.get(), kpi.c_str(), H5P_DEFAULT), w, "replacing sobol/" + kpi);
  const h5::Handle g = h5::create_group(sobol.get(), kpi, w);
  h5::set_attribute(g.get(), "parameters", layout_.parameter_names, w);
  h5::set_attribute(g.get(), "resamples", static_cast<long long>(resamples), w);
  h5::set_attribute(g.get(), "confidence", confidence, w);
  const hsize_t p = layout_.parameter_names.size();
  const std::pair<const char*, const std::vector<double>*> columns[] = {
      {"S1", &s1}, {"S1_conf", &s1_conf}, {"ST", &st}, {"ST_conf", &st_conf}};
  for (const auto& [name, values] : columns) {
    const h5::Handle d = h5::create_dataset(g.get(), name, H5T_IEEE_F64LE, {p}, 0, 0, w);
    h5::write_rows(d.get(), H5T_NATIVE_DOUBLE, 0, p, values->data(), w);
  }
}

void ResultsFile::set_text(const std::string& name, const std::string& value) {
  h5::set_attribute(file_.get(), name, value, path_);
}

void ResultsFile::set_integer(const std::string& name, long long value) {
  h5::set_attribute(file_.get(), name, value, path_);
}

void ResultsFile::set_number(const std::string& name, double value) {
  h5::set_attribute(file_.get(), name, value, path_);
}

std::string ResultsFile::text(const std::string& name) const {
  return h5::has_attribute(file_.get(), name) ? h5::string_attribute(file_.get(), name, path_)
                                              : std::string();
}

void ResultsFile::flush() { h5::check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), path_, "flushing"); }

void ResultsFile::reopen() {
  if (file_) return;
  file_ = h5::checked(H5Fopen(path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path_,
                      "opening the file again");
}

void ResultsFile::close() {
  if (!file_) return;
  flush();
  file_.reset();
}

}  // namespace myriad::study
