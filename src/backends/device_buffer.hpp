#pragma once
// Device memory owned by the host runners: one allocation per buffer, freed with it; every CUDA call checked
// (a failure throws std::runtime_error naming the call). Only for builds with the CUDA backend.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace myriad::cuda {

inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(status));
}

struct DeviceBuffer {
  void* pointer = nullptr;
  explicit DeviceBuffer(size_t bytes) { check(cudaMalloc(&pointer, std::max<size_t>(bytes, 1)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(pointer); }
  DeviceBuffer(DeviceBuffer&& other) noexcept : pointer(other.pointer) { other.pointer = nullptr; }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(pointer); }
};

template <class T>
DeviceBuffer upload(const T* data, size_t count) {
  DeviceBuffer buffer(sizeof(T) * count);
  check(cudaMemcpy(buffer.pointer, data, sizeof(T) * count, cudaMemcpyHostToDevice), "cudaMemcpy (upload)");
  return buffer;
}

// A typed allocation of `count` T's.
template <class T>
struct DeviceArray {
  T* pointer = nullptr;
  explicit DeviceArray(size_t count) {
    void* p = nullptr;
    check(cudaMalloc(&p, sizeof(T) * (count > 0 ? count : 1)), "cudaMalloc");
    pointer = static_cast<T*>(p);
  }
  ~DeviceArray() { cudaFree(pointer); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

// Owns one non-blocking stream.
struct Stream {
  cudaStream_t stream = nullptr;
  Stream() { check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(stream); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};

}  // namespace myriad::cuda
