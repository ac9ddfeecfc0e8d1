#include "version.hpp"

namespace myriad::cli {

std::string version_text() {
  std::string text = std::string("myriad ") + kMyriadVersion + " (C++ " + std::to_string(__cplusplus / 100) +
#if defined(__clang__)
                     ", clang " + __clang_version__ +
#elif defined(__GNUC__)
                     ", gcc " + __VERSION__ +
#endif
#ifdef MYRIAD_HAVE_CUDA
                     ", cuda backend compiled in"
#else
                     ", no cuda backend"
#endif
#ifdef NDEBUG
                     ", release";
#else
                     ", debug";
#endif
  return text + ")";
}

}  // namespace myriad::cli
