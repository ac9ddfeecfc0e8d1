#pragma once
// Shared by the benchmarks: the machine a figure was measured on, and small helpers to run a shipped model.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ensemble/cpu_runner.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace myriad::bench {

inline std::string source_path(const std::string& relative) { return std::string(MYRIAD_SOURCE_DIR) + "/" + relative; }

// CPU model, hardware threads and compiler: recorded with every figure.
inline std::string machine_description() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, cpu = "unknown CPU";
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  std::ostringstream s;
  s << cpu << ", " << std::thread::hardware_concurrency() << " hardware threads, compiler " << __VERSION__;
  return s.str();
}

inline const char* method_name(Method m) {
  switch (m) {
    case Method::rk4: return "rk4";
    case Method::dopri5: return "dopri5";
    case Method::rn4: return "rn4";
    case Method::ros2w: return "ros2w";
    case Method::implicit: return "implicit";
  }
  return "?";
}

inline RunSpec adaptive(Method method, double rtol, double atol) {
  RunSpec spec;
  spec.method = method;
  spec.control.rtol = rtol;
  spec.control.atol = atol;
  return spec;
}

// Least-squares slope of log(error) against log(step): a fitted order of convergence.
inline double fitted_order(const std::vector<double>& step, const std::vector<double>& error) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(step.size());
  for (size_t i = 0; i < step.size(); ++i) {
    const double x = std::log(step[i]), y = std::log(error[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

inline int signal_index(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.outputs.size(); ++i)
    if (model.outputs[i].name == name) return static_cast<int>(i);
  throw std::invalid_argument("model " + model.name + " has no output '" + name + "'");
}

}  // namespace myriad::bench
