// The learner's kernels: contributions summed straight into canonical subtrees (no
// per-sample rows in memory), the update program on replicas, and replica hashes.
#ifndef KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP
#define KFIELD_LEARN_IMPL_LEARNERKERNELS_HPP

#include "kfield/field/impl/CounterRng.hpp"
#include "kfield/learn/impl/PointwiseKernel.hpp"
#include "kfield/sum/impl/TreeSum.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kfield::learn::impl {

// A node of the canonical tree that one thread sums: samples [begin, end) of the global
// sequence, held by `replica`; `local` is the first one's row in this rank's sample array.
struct Piece {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t local = 0;
  int replica = 0;
};

// Pieces hold at most 2^kPieceLog2 samples (the unit of parallel work; not part of the bits).
constexpr int kPieceLog2 = 8;
constexpr int kPieceRows = kPieceLog2 + 2;

// sums(p, :) := the canonical sum over piece p's samples of contribution(params(replica),
// sample). Work in waves so the per-thread stacks stay within a fixed budget.
template <class ExecSpace, class Contribution, class PieceView, class SampleView, class ParamView,
          class SumView>
void pieceSums(const ExecSpace& space, const Contribution& contribution, const PieceView& pieces,
               const SampleView& samples, const ParamView& params, const SumView& sums) {
  using Memory = typename ExecSpace::memory_space;
  const auto count = static_cast<std::int64_t>(pieces.extent(0));
  const auto k = static_cast<std::int64_t>(sums.extent(1));
  const auto s = static_cast<std::int64_t>(samples.extent(1));
  if (count == 0) return;
  const std::int64_t budget = std::int64_t(1) << 25;  // workspace words per wave
  const std::int64_t wave =
      std::max<std::int64_t>(1, std::min<std::int64_t>(count, budget / (kPieceRows * k)));
  Kokkos::View<double*, Memory> work(Kokkos::ViewAllocateWithoutInitializing("kfield::learn::stacks"),
                                     static_cast<std::size_t>(wave * kPieceRows * k));
  for (std::int64_t first = 0; first < count; first += wave) {
    const std::int64_t last = std::min(count, first + wave);
    Kokkos::parallel_for(
        "kfield::learn::piece_sums", Kokkos::RangePolicy<ExecSpace>(space, first, last),
        KOKKOS_LAMBDA(std::int64_t p) {
          const Piece piece = pieces(p);
          kfield::impl::RowTreeStack<double> stack(work.data() + (p - first) * kPieceRows * k, k);
          const double* w = params.data() + piece.replica * k;
          for (std::int64_t j = piece.begin; j < piece.end; ++j) {
            double* out = stack.next();
            for (std::int64_t c = 0; c < k; ++c) out[c] = 0.0;
            contribution(w, samples.data() + (piece.local + (j - piece.begin)) * s, out);
            stack.push();
          }
          const double* root = stack.fold();
          for (std::int64_t c = 0; c < k; ++c) sums(p, c) = root[c];
        });
  }
}

// Runs a compiled update on one replica: pieces in program order; an `each` piece wider than
// a block spreads its blocks over threads, anything else runs in one thread.
template <class ExecSpace>
void runUpdate(const ExecSpace& space, const pointwise::impl::CompiledHost& host,
               const pointwise::impl::CompiledProgram<typename ExecSpace::memory_space>& program,
               const pointwise::impl::Segments& seg) {
  constexpr int L = pointwise::impl::PointwiseLanes<ExecSpace>::value;
  const int pieces = static_cast<int>(host.pieces.size());
  for (int p = 0; p < pieces;) {
    const auto& piece = host.pieces[static_cast<std::size_t>(p)];
    if (piece.fold < 0 && piece.count > L) {
      const std::int64_t blocks = (piece.count + L - 1) / L;
      const std::int64_t count = piece.count;
      Kokkos::parallel_for(
          "kfield::learn::update_each", Kokkos::RangePolicy<ExecSpace>(space, 0, blocks),
          KOKKOS_LAMBDA(std::int64_t b) {
            double acc = 0;
            const std::int64_t i0 = b * L;
            program.template block<L>(p, i0, count - i0 < L ? static_cast<int>(count - i0) : L,
                                      seg, acc);
          });
      ++p;
      continue;
    }
    // Consecutive small pieces (sets, folds, short eaches) in one single-thread kernel.
    int end = p + 1;
    while (end < pieces && !(host.pieces[static_cast<std::size_t>(end)].fold < 0 &&
                             host.pieces[static_cast<std::size_t>(end)].count > L)) {
      ++end;
    }
    Kokkos::parallel_for(
        "kfield::learn::update_serial", Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
        KOKKOS_LAMBDA(int) {
          double acc = 0;
          for (int q = p; q < end; ++q) {
            const std::int64_t count = program.pieces(q).count;
            for (std::int64_t i0 = 0; i0 < count; i0 += L) {
              program.template block<L>(q, i0, count - i0 < L ? static_cast<int>(count - i0) : L,
                                        seg, acc);
            }
          }
        });
    p = end;
  }
}

// A position-keyed hash of a replica's words: integer addition commutes, so any reduction
// order gives the same value.
template <class ExecSpace, class View>
std::uint64_t wordsHash(const ExecSpace& space, const View& values) {
  std::uint64_t hash = 0;
  Kokkos::parallel_reduce(
      "kfield::learn::hash", Kokkos::RangePolicy<ExecSpace>(space, 0, values.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, std::uint64_t & h) {
        union {
          double d;
          std::uint64_t u;
        } bits{values(i)};
        h += kfield::impl::mix64(bits.u, static_cast<std::uint64_t>(i));
      },
      hash);
  return hash;
}

}  // namespace kfield::learn::impl

#endif
