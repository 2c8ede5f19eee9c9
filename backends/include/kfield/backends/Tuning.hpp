// How kernels are cut per backend. None of it changes a bit: tile sizes, chunk lengths and
// lane counts only decide which thread does which part of a fixed computation. A new backend
// (or a new GPU) specialises these templates; nothing else in kfield tests for a backend.
#ifndef KFIELD_BACKENDS_TUNING_HPP
#define KFIELD_BACKENDS_TUNING_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

// Field rounds (kfield/sim): device-samples per tile and threads per team.
template <class ExecSpace>
struct RoundTuning {
  // Long tiles: an operation's loop over the tile costs its dispatch once per 8192 device-
  // samples (64 samples x 128 devices rounds 1.2-1.6x faster than at 512 on this project's
  // benchmark machine, 2026-12-05). Shorter, down to 512, where that leaves fewer than
  // kTilesPerTeam tiles a thread (RoundScratch.hpp).
  static constexpr int kTileElements = 8192;
  static constexpr int kLeastTileElements = 512;
  static int teamSize() { return 1; }
  // Whether a team's threads and vector lanes split a tile (GPUs), or its one thread walks it
  // in plain loops (host backends: Kokkos' host ranges step by a run-time increment, which
  // keeps compilers from vectorising them).
  static constexpr bool kTeamLanes = false;
  // The most team scratch one team asks for. A host team's scratch is ordinary memory, one
  // block per thread; past this a round spills (sim/impl/RoundScratch.hpp).
  static std::uint64_t scratchLimit() { return std::uint64_t(1) << 26; }
};

// Canonical sums (kfield/sum): host threads walk long aligned chunks (cache-sized); a GPU
// wants many short ones, one per thread.
template <class ExecSpace>
struct CanonicalTuning {
  static constexpr int kChunkLog2 = 14;        // samples per thread in canonicalSum
  static constexpr int kVectorChunkLog2 = 12;  // samples per pass in canonicalSumOfVectors
  static constexpr int kVectorWidth = 32;      // coordinates per thread in canonicalSumOfVectors
};

// Pointwise programs (kfield/learn): instances per block. A contribution runs a sample's
// program in one host thread: long blocks amortise the dispatch (a least-squares step at
// k = 10^3 is 1.3x the C++ functor at 1024, 2x at 128). An update spreads blocks over threads:
// blocks whose temporaries stay in L1 (Adam at k = 10^7 runs 1.4x faster at 128 than at 1024).
// A GPU thread keeps its stack small.
template <class ExecSpace>
struct PointwiseLanes {
  static constexpr int value = 1024;   // a contribution
  static constexpr int kSpread = 128;  // an update (runPointwise)
};

#ifdef KOKKOS_ENABLE_CUDA
template <>
struct RoundTuning<Kokkos::Cuda> {
  static constexpr int kTileElements = 256;
  static constexpr int kLeastTileElements = 256;
  static int teamSize() { return 128; }
  static constexpr bool kTeamLanes = true;
  // Shared memory per block, less what Kokkos keeps for itself.
  static std::uint64_t scratchLimit() {
    return static_cast<std::uint64_t>(Kokkos::TeamPolicy<Kokkos::Cuda>::scratch_size_max(0));
  }
};

template <>
struct CanonicalTuning<Kokkos::Cuda> {
  static constexpr int kChunkLog2 = 8;
  static constexpr int kVectorChunkLog2 = 10;
  static constexpr int kVectorWidth = 1;  // adjacent threads read adjacent coordinates
};

template <>
struct PointwiseLanes<Kokkos::Cuda> {
  static constexpr int value = 1;
  static constexpr int kSpread = 1;
};
#endif

}  // namespace kfield

#endif
