// An entry program over a block of (entry, sample) pairs at once, on host backends: each
// operation is one loop over the block, decided once and vectorised, so the interpreter's cost
// is shared by the block. A block may hold several devices' pairs (one sample: a device has
// only a few). The same operations per pair as
// RoundKernel::entryValue, so the same bits.
#ifndef KFIELD_SIM_IMPL_ENTRYBLOCK_HPP
#define KFIELD_SIM_IMPL_ENTRYBLOCK_HPP

#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/impl/KokkosCompat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

constexpr int kEntryBlock = 64;

struct EntryBlock {
  int size = 0;
  // CSR entry, neighbor, sample, device, and the device-sample's element in the tile
  std::int64_t k[kEntryBlock], j[kEntryBlock], s[kEntryBlock], d[kEntryBlock], e[kEntryBlock];
  double reg[kMaxEntryOps][kEntryBlock];  // register r of pair i

  // Adds a pair; true when the block is full.
  KOKKOS_INLINE_FUNCTION bool add(std::int64_t entry, std::int64_t neighbor, std::int64_t sample,
                                  std::int64_t device, std::int64_t element) {
    k[size] = entry, j[size] = neighbor, s[size] = sample, d[size] = device, e[size] = element;
    return ++size == kEntryBlock;
  }
};

// The entry program of op at every pair of the block: a pointer to the result register.
// Host backends only; host-device so that the kernel's host-device members may call it (the
// device backends never instantiate it).
KFIELD_IMPL_EXEC_CHECK_DISABLE
template <class Kernel>
KOKKOS_INLINE_FUNCTION const double* evaluateBlock(const Kernel& kernel, const Op& op,
                                                   const double* scratch, std::int64_t stride,
                                                   EntryBlock& b) {
  const int m = b.size;
  const std::int64_t devices = kernel.devices;
  const auto& planes = kernel.planes;
  for (int r = 0; r < op.entryCount; ++r) {
    const EntryOp& x = kernel.entries(op.entryBegin + r);
    double* out = b.reg[r];
    const double* own = x.slot >= 0 ? scratch + x.slot * stride : nullptr;  // at element e
    switch (x.code) {
      case EntryCode::Neighbor: {
        const std::int64_t base = x.plane * devices;
        if (x.copies == 0) {  // an export of one copy: the neighbor's row is its id's
          for (int i = 0; i < m; ++i) {
            out[i] = b.j[i] != b.d[i] ? planes.exportsPrev(base + b.j[i], b.s[i])
                     : own            ? own[b.e[i]]
                                      : planes.exportsNow(base + b.d[i], b.s[i]);
          }
          break;
        }
        for (int i = 0; i < m; ++i) {
          if (b.j[i] != b.d[i]) {
            const std::int64_t row = kernel.neighborRow(x, b.d[i], b.j[i], b.s[i]);
            out[i] = row >= 0 ? planes.exportsPrev(row, b.s[i]) : 0.0;
          } else {
            out[i] = own ? own[b.e[i]] : planes.exportsNow(base + b.d[i], b.s[i]);
          }
        }
        break;
      }
      case EntryCode::Received:
        for (int i = 0; i < m; ++i) {
          out[i] = b.j[i] != b.d[i] ? planes.exportsPrev(kernel.receivedRow(x, b.k[i]), b.s[i])
                                    : own[b.e[i]];
        }
        break;
      case EntryCode::EdgeLength:
        for (int i = 0; i < m; ++i) out[i] = kernel.net.lengths(b.k[i]);
        break;
      case EntryCode::Lag:
        for (int i = 0; i < m; ++i) out[i] = kernel.lag(b.d[i], b.j[i], b.s[i]);
        break;
      case EntryCode::Local:
        for (int i = 0; i < m; ++i) out[i] = own[b.e[i]];
        break;
      case EntryCode::Constant:
        for (int i = 0; i < m; ++i) out[i] = x.constant;
        break;
      case EntryCode::Mux: {
        const double *c = b.reg[x.a], *yes = b.reg[x.b], *no = b.reg[x.c];
        for (int i = 0; i < m; ++i) out[i] = c[i] == 1.0 ? yes[i] : no[i];
        break;
      }
      default: {
        const double* a = b.reg[x.a];
        const double* second = x.b >= 0 ? b.reg[x.b] : a;  // unary operations ignore it
        Kernel::withEntryOperation(x.code, [&](const auto& f) {
          for (int i = 0; i < m; ++i) out[i] = f(a[i], second[i]);
        });
      }
    }
  }
  return b.reg[op.entryCount - 1];
}

}  // namespace kfield::impl

#endif
