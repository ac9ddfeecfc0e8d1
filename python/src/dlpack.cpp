// The DLPack exchange of Simulator.observe_in_place: an ObservationTensor wraps the (N, S) float64 signals where
// the backend left them (host memory on the cpu backend, device memory on the cuda backend) and hands them to any
// DLPack consumer without a copy: numpy.from_dlpack on the host, torch / cupy / jax .from_dlpack on the GPU.
//
// The structures below have the layout of DLPack's dlpack.h (the unversioned ABI, capsule name "dltensor"),
// written from its specification; a producer that offers only that ABI may answer a consumer's max_version
// request with it, which is what the array API's __dlpack__ protocol prescribes for such producers.
#include <Python.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"

namespace myriad::python {

namespace {

enum DLDeviceType : std::int32_t { kDLCPU = 1, kDLCUDA = 2 };
struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;
};
enum DLDataTypeCode : std::uint8_t { kDLFloat = 2 };
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// What a handed-out tensor keeps alive: its shape and a reference to the Simulator that owns the memory.
struct Export {
  DLManagedTensor managed{};
  std::int64_t shape[2]{};
  PyObject* owner = nullptr;
};

// Called by the consumer when it is done with the memory (from any thread), or by the capsule's destructor when
// no consumer took it.
void delete_export(DLManagedTensor* self) {
  Export* e = static_cast<Export*>(self->manager_ctx);
  const PyGILState_STATE gil = PyGILState_Ensure();
  Py_XDECREF(e->owner);
  PyGILState_Release(gil);
  delete e;
}

void capsule_destructor(PyObject* capsule) {
  // A consumer renames the capsule "used_dltensor" when it takes ownership; only an unconsumed one is ours.
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed) managed->deleter(managed);
}

struct ObservationTensor {
  api::ObservationView view;
  py::object owner;  // the Simulator

  std::pair<int, int> device() const {
    return view.on_device ? std::pair<int, int>{kDLCUDA, view.device} : std::pair<int, int>{kDLCPU, 0};
  }

  py::capsule to_dlpack() const {
    auto* e = new Export;
    e->shape[0] = view.rows;
    e->shape[1] = view.columns;
    e->owner = owner.ptr();
    Py_INCREF(e->owner);
    DLTensor& t = e->managed.dl_tensor;
    t.data = const_cast<double*>(view.data);
    t.device = view.on_device ? DLDevice{kDLCUDA, view.device} : DLDevice{kDLCPU, 0};
    t.ndim = 2;
    t.dtype = DLDataType{kDLFloat, 64, 1};
    t.shape = e->shape;
    t.strides = nullptr;
    t.byte_offset = 0;
    e->managed.manager_ctx = e;
    e->managed.deleter = delete_export;
    PyObject* capsule = PyCapsule_New(&e->managed, "dltensor", capsule_destructor);
    if (!capsule) {
      delete_export(&e->managed);
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::capsule>(capsule);
  }
};

}  // namespace

py::object observation_tensor(const api::ObservationView& view, py::object owner) {
  return py::cast(ObservationTensor{view, std::move(owner)});
}

void bind_dlpack(py::module_& m) {
  py::class_<ObservationTensor>(
      m, "ObservationTensor",
      "The (N, S) float64 output signals that Simulator.observe_in_place left where the backend computed them "
      "(host memory on the cpu backend, device memory on the cuda backend), for any DLPack consumer without a copy: "
      "numpy.from_dlpack(t) on the cpu backend, torch.from_dlpack(t) or cupy.from_dlpack(t) on the cuda backend. "
      "The memory belongs to the Simulator, which the tensor keeps alive, and the next observe_in_place writes "
      "it again in place. On the cuda backend the data is complete when observe_in_place returns (the device is "
      "synchronized), so a consumer's stream may read it at once.")
      .def(
          "__dlpack__",
          [](const ObservationTensor& t, const py::object& stream, const py::object& max_version,
             const py::object& dl_device, const py::object& copy) {
            (void)stream;       // the data is complete before observe_in_place returns: no stream to wait on
            (void)max_version;  // only the unversioned ABI is offered (allowed to answer any request)
            if (!dl_device.is_none()) {
              const auto wanted = dl_device.cast<std::pair<int, int>>();
              if (wanted != t.device())
                throw py::buffer_error("ObservationTensor.__dlpack__: the data lives on device (" +
                                       std::to_string(t.device().first) + ", " +
                                       std::to_string(t.device().second) + ") and is not copied elsewhere");
            }
            if (!copy.is_none() && copy.cast<bool>())
              throw py::buffer_error("ObservationTensor.__dlpack__: copy=True is not offered; it is shared memory");
            return t.to_dlpack();
          },
          py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
          "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None) -> PyCapsule 'dltensor'")
      .def("__dlpack_device__", &ObservationTensor::device,
           "__dlpack_device__() -> (device_type, device_id): (1, 0) for the host, (2, ordinal) for a CUDA device.")
      .def_property_readonly(
          "shape", [](const ObservationTensor& t) { return py::make_tuple(t.view.rows, t.view.columns); },
          "(N, S)")
      .def_property_readonly(
          "device",
          [](const ObservationTensor& t) {
            return t.view.on_device ? "cuda:" + std::to_string(t.view.device) : std::string("cpu");
          },
          "'cpu' or 'cuda:<ordinal>'")
      .def("__repr__", [](const ObservationTensor& t) {
        return "<myriad.ObservationTensor (" + std::to_string(t.view.rows) + ", " + std::to_string(t.view.columns) +
               ") float64 on " + (t.view.on_device ? "cuda:" + std::to_string(t.view.device) : std::string("cpu")) +
               ">";
      });
}

}  // namespace myriad::python
