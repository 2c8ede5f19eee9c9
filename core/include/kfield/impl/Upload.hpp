// A host vector copied into a View of the memory space that kernels read.
#ifndef KFIELD_IMPL_UPLOAD_HPP
#define KFIELD_IMPL_UPLOAD_HPP

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace kfield::impl {

template <class Memory, class T>
Kokkos::View<T*, Memory> upload(const std::vector<T>& host, const std::string& label) {
  Kokkos::View<T*, Memory> view(Kokkos::ViewAllocateWithoutInitializing(label), host.size());
  Kokkos::deep_copy(view, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                              host.data(), host.size()));
  return view;
}

}  // namespace kfield::impl

#endif
