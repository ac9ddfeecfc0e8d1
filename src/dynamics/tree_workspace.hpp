#pragma once
// Per-instance scratch of the tree algorithms, carved from one caller-owned buffer so the algorithms never
// allocate (a CPU thread reuses one buffer for all its instances; a GPU thread gets a slice of device memory).
#include <cstddef>

#include "core/hd.hpp"
#include "model/compiled_model.hpp"
#include "spatial/rigid_inertia.hpp"

namespace myriad {

template <class S>
struct TreeWorkspace {
  Transform<S>* X_parent;    // X_lambda(i),i: body i in its parent's frame (nb), written by tree_kinematics
  Transform<S>* X_world;     // X_0i: body i in the world (nb), written by tree_kinematics
  Motion<S>* velocity;       // v_i, body coordinates (nb), written by tree_kinematics
  Motion<S>* bias;           // c_i = v_i x S_i v + c_J, body coordinates (nb), written by tree_kinematics
  Motion<S>* subspace;       // S columns in body coordinates (nv), written by tree_kinematics
  Motion<S>* acceleration;   // a_i, body coordinates (nb), written by articulated_body / inverse_dynamics
  Force<S>* f_ext;           // applied spatial force on each body, body coordinates (nb), written by applied_forces
  S* tau;                    // applied generalized forces (nv), written by applied_forces
  SpatialInertia<S>* IA;     // articulated inertias (nb), articulated_body
  RigidInertia<S>* Ic;       // composite-rigid-body inertias (nb), mass_matrix
  Force<S>* pA;              // articulated bias forces / RNEA body forces (nb)
  Force<S>* U;               // IA S (nv), articulated_body
  S* D_inv;                  // (S^T IA S)^-1, 6x6 slot per body (36 nb), articulated_body
  S* u;                      // tau - S^T pA (nv), articulated_body
};

namespace detail {
template <class T>
MYRIAD_HD_INLINE T* carve(unsigned char*& cursor, int count) {
  const std::size_t align = alignof(T);
  std::size_t address = reinterpret_cast<std::size_t>(cursor);
  address = (address + align - 1) / align * align;
  T* p = reinterpret_cast<T*>(address);
  cursor = reinterpret_cast<unsigned char*>(address + sizeof(T) * static_cast<std::size_t>(count));
  return p;
}
}  // namespace detail

// Lays the workspace out over `buffer`; returns the views. With buffer == nullptr only `bytes_used` is useful.
template <class S>
MYRIAD_HD TreeWorkspace<S> carve_tree_workspace(const CompiledModel& model, void* buffer, std::size_t* bytes_used) {
  const int nb = model.n_bodies, nv = model.nv > 0 ? model.nv : 1;
  unsigned char* start = static_cast<unsigned char*>(buffer);
  unsigned char* cursor = start;
  TreeWorkspace<S> w;
  w.X_parent = detail::carve<Transform<S>>(cursor, nb);
  w.X_world = detail::carve<Transform<S>>(cursor, nb);
  w.velocity = detail::carve<Motion<S>>(cursor, nb);
  w.bias = detail::carve<Motion<S>>(cursor, nb);
  w.subspace = detail::carve<Motion<S>>(cursor, nv);
  w.acceleration = detail::carve<Motion<S>>(cursor, nb);
  w.f_ext = detail::carve<Force<S>>(cursor, nb);
  w.tau = detail::carve<S>(cursor, nv);
  w.IA = detail::carve<SpatialInertia<S>>(cursor, nb);
  w.Ic = detail::carve<RigidInertia<S>>(cursor, nb);
  w.pA = detail::carve<Force<S>>(cursor, nb);
  w.U = detail::carve<Force<S>>(cursor, nv);
  w.D_inv = detail::carve<S>(cursor, 36 * nb);
  w.u = detail::carve<S>(cursor, nv);
  if (bytes_used) *bytes_used = static_cast<std::size_t>(cursor - start) + alignof(S) + 64;
  return w;
}

template <class S>
std::size_t tree_workspace_bytes(const CompiledModel& model) {
  std::size_t bytes = 0;
  carve_tree_workspace<S>(model, nullptr, &bytes);
  return bytes;
}

}  // namespace myriad
