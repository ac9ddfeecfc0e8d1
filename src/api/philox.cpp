// api::philox_uniform / philox_normal on core/philox.hpp (Philox4x32-10).
#include <stdexcept>
#include <string>

#include "api/myriad/myriad.hpp"
#include "core/philox.hpp"

namespace myriad::api {
namespace {

// The counter packs instance and episode as 32-bit words: larger values would repeat another stream silently.
std::uint32_t word(std::uint64_t value, const char* what) {
  if (value > 0xFFFFFFFFull)
    throw std::invalid_argument(std::string("philox: ") + what + " = " + std::to_string(value) +
                                " does not fit 32 bits (at most 4294967295)");
  return static_cast<std::uint32_t>(value);
}

}  // namespace

double philox_uniform(std::uint64_t seed, std::uint64_t instance, std::uint64_t episode, std::uint64_t counter) {
  return myriad::philox_uniform(seed, word(instance, "instance"), word(episode, "episode"), counter);
}

double philox_normal(std::uint64_t seed, std::uint64_t instance, std::uint64_t episode, std::uint64_t counter) {
  if (counter >= (std::uint64_t{1} << 63))
    throw std::invalid_argument("philox_normal: counter = " + std::to_string(counter) + " is 2^63 or more");
  return myriad::philox_normal(seed, word(instance, "instance"), word(episode, "episode"), counter);
}

}  // namespace myriad::api
