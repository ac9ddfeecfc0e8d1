// HDF5 C API calls behind owning handles. The library's own error stack is silenced (H5Eset_auto off in the
// results file); each failed call becomes an exception that names the file and the object instead.
#include "study/hdf5_handles.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace myriad::study::h5 {

Handle checked(hid_t id, Handle::Close close, const std::string& where, const std::string& what) {
  if (id < 0) throw std::runtime_error(where + ": " + what + " failed (HDF5)");
  return Handle(id, close);
}

void check(herr_t status, const std::string& where, const std::string& what) {
  if (status < 0) throw std::runtime_error(where + ": " + what + " failed (HDF5)");
}

namespace {

Handle string_type(const std::string& where) {
  Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, where, "a string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), where, "a string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), where, "a string type");
  return type;
}

void remove_attribute(hid_t object, const std::string& name, const std::string& where) {
  if (has_attribute(object, name))
    check(H5Adelete(object, name.c_str()), where, "removing attribute " + name);
}

void write_attribute(hid_t object, const std::string& name, hid_t type, hid_t space, const void* data,
                     const std::string& where) {
  remove_attribute(object, name, where);
  const Handle attribute = checked(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                                   H5Aclose, where, "creating attribute " + name);
  if (H5Sget_simple_extent_type(space) == H5S_NULL) return;  // nothing to write
  check(H5Awrite(attribute.get(), type, data), where, "writing attribute " + name);
}

// A hyperslab of rows [row0, row0 + rows) of the dataset and the matching memory space.
std::pair<Handle, Handle> row_spaces(hid_t dataset, hsize_t row0, hsize_t rows, const std::string& where) {
  Handle file_space = checked(H5Dget_space(dataset), H5Sclose, where, "a dataspace");
  const int rank = H5Sget_simple_extent_ndims(file_space.get());
  if (rank < 1 || rank > 2) throw std::runtime_error(where + ": a dataset of rank " + std::to_string(rank));
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(file_space.get(), dims, nullptr);
  if (row0 + rows > dims[0])
    throw std::runtime_error(where + ": rows " + std::to_string(row0) + " .. " + std::to_string(row0 + rows) +
                             " past the dataset's " + std::to_string(dims[0]));
  const hsize_t start[2] = {row0, 0};
  const hsize_t count[2] = {rows, rank == 2 ? dims[1] : 1};
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), where,
        "selecting rows");
  Handle memory_space = checked(H5Screate_simple(rank, count, nullptr), H5Sclose, where, "a dataspace");
  return {std::move(file_space), std::move(memory_space)};
}

}  // namespace

Handle create_dataset(hid_t parent, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                      hsize_t chunk_rows, int deflate, const std::string& where) {
  const std::string what = "creating dataset " + name;
  const Handle space =
      checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose, where, what);
  const Handle properties = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, where, what);
  bool any_rows = true;
  for (hsize_t d : dims) any_rows = any_rows && d > 0;
  if (chunk_rows > 0 && any_rows) {
    std::vector<hsize_t> chunk = dims;
    chunk[0] = std::min(chunk_rows, dims[0]);
    check(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()), where, what);
    if (deflate > 0) {
      check(H5Pset_shuffle(properties.get()), where, what);
      check(H5Pset_deflate(properties.get(), static_cast<unsigned>(deflate)), where, what);
    }
  }
  // Rows not yet written read as NaN (doubles) or the type's zero: an unfinished file never shows plausible
  // data.
  if (H5Tequal(type, H5T_NATIVE_DOUBLE) > 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    check(H5Pset_fill_value(properties.get(), H5T_NATIVE_DOUBLE, &nan), where, what);
  }
  check(H5Pset_fill_time(properties.get(), H5D_FILL_TIME_ALLOC), where, what);
  return checked(
      H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
      H5Dclose, where, what);
}

void write_rows(hid_t dataset, hid_t memory_type, hsize_t row0, hsize_t rows, const void* data,
                const std::string& where) {
  if (rows == 0) return;
  const auto [file_space, memory_space] = row_spaces(dataset, row0, rows, where);
  check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), where,
        "writing rows");
}

void read_rows(hid_t dataset, hid_t memory_type, hsize_t row0, hsize_t rows, void* data,
               const std::string& where) {
  if (rows == 0) return;
  const auto [file_space, memory_space] = row_spaces(dataset, row0, rows, where);
  check(H5Dread(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), where,
        "reading rows");
}

std::vector<hsize_t> dataset_dims(hid_t dataset, const std::string& where) {
  const Handle space = checked(H5Dget_space(dataset), H5Sclose, where, "a dataspace");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) throw std::runtime_error(where + ": a dataspace failed (HDF5)");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

void set_attribute(hid_t object, const std::string& name, const std::string& value,
                   const std::string& where) {
  const Handle type = string_type(where);
  const Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, where, "a dataspace");
  const char* text = value.c_str();
  write_attribute(object, name, type.get(), space.get(), &text, where);
}

void set_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values,
                   const std::string& where) {
  const Handle type = string_type(where);
  const hsize_t n = values.size();
  // An empty list is a null dataspace: HDF5 refuses attributes of extent 0.
  const Handle space = checked(n == 0 ? H5Screate(H5S_NULL) : H5Screate_simple(1, &n, nullptr), H5Sclose,
                               where, "a dataspace");
  std::vector<const char*> texts;
  for (const std::string& v : values) texts.push_back(v.c_str());
  write_attribute(object, name, type.get(), space.get(), texts.data(), where);
}

void set_attribute(hid_t object, const std::string& name, double value, const std::string& where) {
  const Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, where, "a dataspace");
  write_attribute(object, name, H5T_NATIVE_DOUBLE, space.get(), &value, where);
}

void set_attribute(hid_t object, const std::string& name, long long value, const std::string& where) {
  const Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, where, "a dataspace");
  write_attribute(object, name, H5T_NATIVE_LLONG, space.get(), &value, where);
}

bool has_attribute(hid_t object, const std::string& name) { return H5Aexists(object, name.c_str()) > 0; }

std::vector<std::string> strings_attribute(hid_t object, const std::string& name, const std::string& where) {
  const Handle attribute =
      checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, where, "attribute " + name);
  const Handle space = checked(H5Aget_space(attribute.get()), H5Sclose, where, "attribute " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) throw std::runtime_error(where + ": attribute " + name + " failed (HDF5)");
  if (n == 0) return {};
  const Handle type = string_type(where);
  std::vector<char*> texts(static_cast<std::size_t>(n), nullptr);
  check(H5Aread(attribute.get(), type.get(), texts.data()), where, "reading attribute " + name);
  std::vector<std::string> out;
  for (char* t : texts) out.emplace_back(t != nullptr ? t : "");
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, texts.data());
  return out;
}

std::string string_attribute(hid_t object, const std::string& name, const std::string& where) {
  const std::vector<std::string> values = strings_attribute(object, name, where);
  if (values.size() != 1) throw std::runtime_error(where + ": attribute " + name + " is not one string");
  return values[0];
}

long long integer_attribute(hid_t object, const std::string& name, const std::string& where) {
  const Handle attribute =
      checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, where, "attribute " + name);
  long long value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_LLONG, &value), where, "reading attribute " + name);
  return value;
}

Handle open_group(hid_t parent, const std::string& name, const std::string& where) {
  return checked(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, where, "opening group " + name);
}

Handle create_group(hid_t parent, const std::string& name, const std::string& where) {
  return checked(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, where,
                 "creating group " + name);
}

Handle open_dataset(hid_t parent, const std::string& name, const std::string& where) {
  return checked(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose, where, "opening dataset " + name);
}

}  // namespace myriad::study::h5
