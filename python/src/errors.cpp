// Exception translation: api::ModelFileError -> myriad.ModelFileError and api::SettingError -> myriad.SettingError,
// both subclasses of ValueError carrying the C++ message unchanged plus the structured fields (file, pointer,
// reason; setting); api::Cancelled -> KeyboardInterrupt. Other std::invalid_argument -> ValueError and
// std::runtime_error -> RuntimeError are pybind11's own translations.
#include <Python.h>

#include <exception>

#include "bindings.hpp"

namespace myriad::python {

namespace {

// Owned references kept for the life of the process (never released: the translator may run until the
// interpreter finalizes, and a static py::object would be destroyed after it).
PyObject* model_file_error_type = nullptr;
PyObject* setting_error_type = nullptr;

void raise_with_attributes(PyObject* type, const char* message,
                           const std::vector<std::pair<const char*, std::string>>& attributes) {
  py::object instance = py::reinterpret_borrow<py::object>(type)(py::str(message));
  for (const auto& [name, value] : attributes) instance.attr(name) = py::str(value);
  PyErr_SetObject(type, instance.ptr());
}

}  // namespace

void bind_errors(py::module_& m) {
  model_file_error_type = PyErr_NewExceptionWithDoc(
      "myriad._myriad.ModelFileError",
      "A model file's problem (a ValueError): str(error) is the message the CLI prints; the attributes `file`, "
      "`pointer` (the JSON pointer, e.g. /forces/1/stiffness) and `reason` carry its parts.",
      PyExc_ValueError, nullptr);
  setting_error_type = PyErr_NewExceptionWithDoc(
      "myriad._myriad.SettingError",
      "A run setting refused as given (a ValueError): str(error) names it, the attribute `setting` is the "
      "RunOptions member's name (e.g. 'rtol').",
      PyExc_ValueError, nullptr);
  if (model_file_error_type == nullptr || setting_error_type == nullptr) throw py::error_already_set();
  m.attr("ModelFileError") = py::reinterpret_borrow<py::object>(model_file_error_type);
  m.attr("SettingError") = py::reinterpret_borrow<py::object>(setting_error_type);

  py::register_exception_translator([](std::exception_ptr error) {
    if (!error) return;
    try {
      std::rethrow_exception(error);
    } catch (const api::ModelFileError& e) {
      raise_with_attributes(model_file_error_type, e.what(),
                            {{"file", e.file()}, {"pointer", e.pointer()}, {"reason", e.reason()}});
    } catch (const api::SettingError& e) {
      raise_with_attributes(setting_error_type, e.what(), {{"setting", e.setting()}});
    } catch (const api::Cancelled& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
}

}  // namespace myriad::python
