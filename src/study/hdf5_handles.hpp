#pragma once
// Owning handles for the HDF5 C library's identifiers (files, groups, datasets, dataspaces, types, property
// lists, attributes) and the few typed reads and writes the results file needs. Every failure throws
// std::runtime_error naming the file and the object, so a study never goes on past a write that did not
// happen.
#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace myriad::study::h5 {

// One identifier, closed with the close function of its kind when the handle ends.
class Handle {
 public:
  using Close = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Close close) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_ != nullptr) close_(id_);
    id_ = H5I_INVALID_HID;
  }
  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Close close_ = nullptr;
};

// Throws "<where>: <what> failed (HDF5)" when id < 0; else wraps it.
Handle checked(hid_t id, Handle::Close close, const std::string& where, const std::string& what);
void check(herr_t status, const std::string& where, const std::string& what);

// Datasets of doubles, 64-bit integers, 32-bit integers or bytes, rank 1 or 2, created full size. chunk_rows
// > 0 makes them chunked along the first dimension (gzip level `deflate` when > 0, with the byte shuffle).
Handle create_dataset(hid_t parent, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                      hsize_t chunk_rows, int deflate, const std::string& where);
// Rows [row0, row0 + rows) of a rank-1 or rank-2 dataset (all columns) from / into memory of the given type.
void write_rows(hid_t dataset, hid_t memory_type, hsize_t row0, hsize_t rows, const void* data,
                const std::string& where);
void read_rows(hid_t dataset, hid_t memory_type, hsize_t row0, hsize_t rows, void* data,
               const std::string& where);
std::vector<hsize_t> dataset_dims(hid_t dataset, const std::string& where);

// Attributes on a file, group or dataset (replaced when present).
void set_attribute(hid_t object, const std::string& name, const std::string& value, const std::string& where);
void set_attribute(hid_t object, const std::string& name, const std::vector<std::string>& values,
                   const std::string& where);
void set_attribute(hid_t object, const std::string& name, double value, const std::string& where);
void set_attribute(hid_t object, const std::string& name, long long value, const std::string& where);
std::string string_attribute(hid_t object, const std::string& name, const std::string& where);
std::vector<std::string> strings_attribute(hid_t object, const std::string& name, const std::string& where);
long long integer_attribute(hid_t object, const std::string& name, const std::string& where);
bool has_attribute(hid_t object, const std::string& name);

Handle open_group(hid_t parent, const std::string& name, const std::string& where);
Handle create_group(hid_t parent, const std::string& name, const std::string& where);
Handle open_dataset(hid_t parent, const std::string& name, const std::string& where);

}  // namespace myriad::study::h5
