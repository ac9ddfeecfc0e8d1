#include "io/temporary_files.hpp"

#include <unistd.h>

#include <atomic>
#include <cstring>

namespace myriad {
namespace {

constexpr std::size_t kPathBytes = 4096;  // PATH_MAX on Linux

// A slot is free (0), being filled (1) or holds a path (2); the handler only reads slots that hold one.
struct TemporarySlot {
  std::atomic<int> state{0};
  char path[kPathBytes];
};

TemporarySlot slots[kMaxTemporaryFiles];

}  // namespace

int register_temporary_file(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kMaxTemporaryFiles; ++i) {
    int expected = 0;
    if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(2, std::memory_order_release);
    return i;
  }
  return -1;
}

void forget_temporary_file(int slot) {
  if (slot >= 0 && slot < kMaxTemporaryFiles) slots[slot].state.store(0, std::memory_order_release);
}

void remove_registered_temporary_files() noexcept {
  for (TemporarySlot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.path);
}

}  // namespace myriad
