// An entry program over a block of (entry, sample) pairs at once, on host backends: each
// operation is one loop over the block, decided once and vectorised, so the interpreter's cost
// is shared by the block. A block may hold several devices' pairs (one sample: a device has
// only a few), or one entry's run of samples (EntryRow: many samples; its leaves are rows of
// the planes or the tile, read in place, not gathered). The same operations per pair as
// RoundKernel::entryValue, so the same bits.
#ifndef KFIELD_SIM_IMPL_ENTRYBLOCK_HPP
#define KFIELD_SIM_IMPL_ENTRYBLOCK_HPP

#include "kfield/field/impl/Bytecode.hpp"
#include "kfield/impl/KokkosCompat.hpp"
#include "kfield/sim/impl/Operations.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

constexpr int kEntryBlock = 64;

struct EntryRegisters {
  double reg[kMaxEntryOps][kEntryBlock];  // register r of pair i
};

// Pairs gathered one by one.
struct EntryBlock : EntryRegisters {
  static constexpr bool kRow = false;
  int size = 0;
  // CSR entry, neighbor, sample, device, and the device-sample's element in the tile
  std::int64_t k[kEntryBlock], j[kEntryBlock], s[kEntryBlock], d[kEntryBlock], e[kEntryBlock];

  // Adds a pair; true when the block is full.
  KOKKOS_INLINE_FUNCTION bool add(std::int64_t entry, std::int64_t neighbor, std::int64_t sample,
                                  std::int64_t device, std::int64_t element) {
    k[size] = entry, j[size] = neighbor, s[size] = sample, d[size] = device, e[size] = element;
    return ++size == kEntryBlock;
  }
};

// Entry `entry` (device `device` hears `neighbor`) at samples sample, sample + 1, ... (size of
// them), whose elements in the tile are element, element + 1, ...
struct EntryRow : EntryRegisters {
  static constexpr bool kRow = true;
  int size = 0;
  std::int64_t entry = 0, neighbor = 0, device = 0, sample = 0, element = 0;
};

// Pair i of a block of either kind: its entry, neighbor, sample, device and element.
KOKKOS_INLINE_FUNCTION std::int64_t pairEntry(const EntryBlock& b, int i) { return b.k[i]; }
KOKKOS_INLINE_FUNCTION std::int64_t pairNeighbor(const EntryBlock& b, int i) { return b.j[i]; }
KOKKOS_INLINE_FUNCTION std::int64_t pairSample(const EntryBlock& b, int i) { return b.s[i]; }
KOKKOS_INLINE_FUNCTION std::int64_t pairDevice(const EntryBlock& b, int i) { return b.d[i]; }
KOKKOS_INLINE_FUNCTION std::int64_t pairElement(const EntryBlock& b, int i) { return b.e[i]; }
KOKKOS_INLINE_FUNCTION std::int64_t pairEntry(const EntryRow& b, int) { return b.entry; }
KOKKOS_INLINE_FUNCTION std::int64_t pairNeighbor(const EntryRow& b, int) { return b.neighbor; }
KOKKOS_INLINE_FUNCTION std::int64_t pairSample(const EntryRow& b, int i) { return b.sample + i; }
KOKKOS_INLINE_FUNCTION std::int64_t pairDevice(const EntryRow& b, int) { return b.device; }
KOKKOS_INLINE_FUNCTION std::int64_t pairElement(const EntryRow& b, int i) { return b.element + i; }

// The entry program of op at every pair of the block: a pointer to the result register.
// Host backends only; host-device so that the kernel's host-device members may call it (the
// device backends never instantiate it).
KFIELD_IMPL_EXEC_CHECK_DISABLE
template <class Kernel, class Block>
KOKKOS_INLINE_FUNCTION const double* evaluateBlock(const Kernel& kernel, const Op& op,
                                                   const double* scratch, std::int64_t stride,
                                                   Block& b) {
  const int m = b.size;
  const std::int64_t devices = kernel.devices;
  const auto& planes = kernel.planes;
  // Register r's values: b.reg[r], or in a row the row itself where a leaf reads one (no copy).
  const double* in[kMaxEntryOps];
  const double* result = b.reg[0];
  int from = 0;
  if (op.sharedEntries > 0 && kernel.sharesEntries()) {  // the fold before kept this register
    from = op.sharedEntries;
    const std::int64_t edges = kernel.edgePlaneRow(op.edge);
    if constexpr (Block::kRow) {
      in[from - 1] = &planes.exportsNow(edges + b.entry, b.sample);
    } else {
      for (int i = 0; i < m; ++i) b.reg[from - 1][i] = planes.exportsNow(edges + b.k[i], b.s[i]);
      in[from - 1] = b.reg[from - 1];
    }
  }
  for (int r = from; r < op.entryCount; ++r) {
    const EntryOp& x = kernel.entries(op.entryBegin + r);
    double* out = b.reg[r];
    in[r] = out;
    const double* own = x.slot >= 0 ? scratch + x.slot * stride : nullptr;  // at element e
    switch (x.code) {
      case EntryCode::Neighbor: {
        const std::int64_t base = x.plane * devices;
        if constexpr (Block::kRow) {  // one neighbor's row, or the device's own values
          if (x.copies == 0 || b.neighbor == b.device) {
            in[r] = b.neighbor != b.device ? &planes.exportsPrev(base + b.neighbor, b.sample)
                    : own                  ? own + b.element
                                           : &planes.exportsNow(base + b.device, b.sample);
            break;
          }
        } else if (x.copies == 0) {  // an export of one copy: the neighbor's row is its id's
          for (int i = 0; i < m; ++i) {
            out[i] = b.j[i] != b.d[i] ? planes.exportsPrev(base + b.j[i], b.s[i])
                     : own            ? own[b.e[i]]
                                      : planes.exportsNow(base + b.d[i], b.s[i]);
          }
          break;
        }
        for (int i = 0; i < m; ++i) {
          const std::int64_t d = pairDevice(b, i), j = pairNeighbor(b, i), s = pairSample(b, i);
          if (j != d) {
            const std::int64_t row = kernel.neighborRow(x, d, j, s);
            out[i] = row >= 0 ? planes.exportsPrev(row, s) : 0.0;
          } else {
            out[i] = own ? own[pairElement(b, i)] : planes.exportsNow(base + d, s);
          }
        }
        break;
      }
      case EntryCode::Received:
        if constexpr (Block::kRow) {
          in[r] = b.neighbor != b.device
                      ? &planes.exportsPrev(kernel.receivedRow(x, b.entry), b.sample)
                      : own + b.element;
        } else {
          for (int i = 0; i < m; ++i) {
            out[i] = b.j[i] != b.d[i] ? planes.exportsPrev(kernel.receivedRow(x, b.k[i]), b.s[i])
                                      : own[b.e[i]];
          }
        }
        break;
      case EntryCode::EdgeLength:
        for (int i = 0; i < m; ++i) out[i] = kernel.net.lengths(pairEntry(b, i));
        break;
      case EntryCode::Lag:
        for (int i = 0; i < m; ++i) {
          out[i] = kernel.lag(pairDevice(b, i), pairNeighbor(b, i), pairSample(b, i));
        }
        break;
      case EntryCode::Local:
        if constexpr (Block::kRow) {
          in[r] = own + b.element;
        } else {
          for (int i = 0; i < m; ++i) out[i] = own[b.e[i]];
        }
        break;
      case EntryCode::Constant:
        for (int i = 0; i < m; ++i) out[i] = x.constant;
        break;
      case EntryCode::Mux: {
        const double *c = in[x.a], *yes = in[x.b], *no = in[x.c];
        for (int i = 0; i < m; ++i) {
          const double taken = yes[i], other = no[i];  // both loaded: a select, no masked loads
          out[i] = c[i] == 1.0 ? taken : other;
        }
        break;
      }
      default: {
        const double* a = in[x.a];
        const double* second = x.b >= 0 ? in[x.b] : a;  // unary operations ignore it
        withEntryOperation(x.code, [&](const auto& f) {
          for (int i = 0; i < m; ++i) out[i] = f(a[i], second[i]);
        });
      }
    }
    result = in[r];
  }
  return result;
}

}  // namespace kfield::impl

#endif
