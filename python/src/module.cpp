// The extension module myriad._myriad; the package myriad (python/myriad/__init__.py) re-exports it.
#include <string>

#include "bindings.hpp"

PYBIND11_MODULE(_myriad, m) {
  namespace mp = myriad::python;
  namespace py = pybind11;
  m.doc() = "Myriad's C++ API (src/api/myriad/myriad.hpp) for Python: load models, run ensembles (simulate), "
            "step N instances (Simulator), counter-based random draws (philox_uniform, philox_normal), modes about static "
            "equilibrium (modes).";
  m.attr("__version__") = MYRIAD_VERSION;
#if PYBIND11_VERSION_HEX < 0x020C0000
  // pybind11 before 2.12 reads NumPy 1's dtype struct: under NumPy 2 arrays would come out with wrong strides.
  const std::string numpy_version = py::str(py::module_::import("numpy").attr("__version__"));
  if (numpy_version.rfind("1.", 0) != 0) {
    throw py::import_error("myriad._myriad was built with pybind11 " PYBIND11_TOSTRING(PYBIND11_VERSION_MAJOR) "."
                           PYBIND11_TOSTRING(PYBIND11_VERSION_MINOR) ", which supports NumPy 1 only, and NumPy " +
                           numpy_version + " is installed: use numpy<2 (python/requirements-test.txt) or build "
                           "with pybind11 >= 2.12");
  }
#endif
  mp::bind_errors(m);
  mp::bind_model(m);
  mp::bind_simulate(m);
  mp::bind_dlpack(m);
  mp::bind_simulator(m);
  mp::bind_philox(m);
  mp::bind_modes(m);
  mp::bind_kc(m);
}
