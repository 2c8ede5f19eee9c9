// Pointwise programs compiled for kernels. Slots live in up to four segments (for instance
// parameters, one sample, the contribution row), each its own array, so nothing is copied
// into a slot vector. Compilation resolves every read to (segment, offset) and splits `each`
// and `fold` assignments where an indexed range would cross a segment, so the evaluator never
// looks a slot up. It interprets code over blocks of L instances at a time: one dispatch per
// operator per block, the inner loops run across instances (vectorisable on the host).
#ifndef KFIELD_LEARN_IMPL_POINTWISEKERNEL_HPP
#define KFIELD_LEARN_IMPL_POINTWISEKERNEL_HPP

#include "kfield/backends/Tuning.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/learn/Pointwise.hpp"
#include "kfield/learn/impl/PointwiseOps.hpp"
#include "kfield/sum/InnerSum.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::impl {

constexpr int kSegments = 4;

// Where a program's slots live: segment j holds slots [start[j], start[j + 1]).
struct SlotLayout {
  std::vector<std::int64_t> start;  // ascending, starts at 0; the last entry is the slot count
  std::vector<bool> writable;       // one per segment
};

// Base pointers of the segments, passed by value into kernels.
struct Segments {
  double* base[kSegments] = {nullptr, nullptr, nullptr, nullptr};
};

struct CodePiece {
  std::int64_t destOffset = 0;
  std::int64_t count = 0;
  std::int64_t codeBegin = 0;
  std::int64_t codeEnd = 0;
  int destSegment = 0;
  std::int64_t foldOffset = 0;  // the fold's (or sum's) instance at this piece's first
  int fold = -1;                // -1: writes each instance; otherwise the fold's Binary operator
  bool innerSum = false;        // a `sum`: added in the inner-sum order (fold is Add)
  bool foldFirst = false;       // the fold starts in this piece
  bool foldLast = false;        // and ends in it (then writes its slot)
  bool uniform = false;         // the value is the same for every instance
  // An `each` that runs block by block with the pieces before it (same count; no instance
  // reads or writes what another instance of the group writes): one pass over memory.
  bool fused = false;
};

// Code words after compilation: opcode in the low 8 bits; reads carry segment (2 bits) and
// offset above them, constants an index into the constant table; operators carry whether
// their operands are uniform (the same for every instance: no indexed read beneath), which
// the evaluator computes once per block instead of per instance.
constexpr int kSegmentShift = 8;
constexpr int kOffsetShift = 10;
constexpr std::uint64_t kLeftUniform = std::uint64_t(1) << 8;  // unary: the operand
constexpr std::uint64_t kRightUniform = std::uint64_t(1) << 9;

// A compiled program on the host: what PointwiseKernel uploads, and what a caller reads to
// decide how to launch it.
struct PointwiseCode {
  std::vector<CodePiece> pieces;
  std::vector<std::uint64_t> code;
  std::vector<double> constants;
};

// Throws std::invalid_argument (prefixed with `what`) when an assignment writes a segment
// that is not writable.
PointwiseCode compilePointwise(const PointwiseProgram& program, const SlotLayout& layout,
                               const std::string& what);

// x[j] * y[j], read as one operand.
struct Products {
  const double* x;
  const double* y;
  KOKKOS_INLINE_FUNCTION double operator[](std::int64_t j) const { return x[j] * y[j]; }
};

// What a fold or sum carries from block to block.
struct FoldCarry {
  double acc = 0;
  InnerSumLanes lanes;
};

// A compiled program in a memory space, evaluated by kernels.
template <class Memory>
struct PointwiseKernel {
  Kokkos::View<const CodePiece*, Memory> pieces;
  Kokkos::View<const std::uint64_t*, Memory> code;
  Kokkos::View<const double*, Memory> constants;
  int pieceCount = 0;

  // Evaluates instances [i0, i0 + len) of piece p, len <= L; `carry` carries a fold or sum.
  template <int L>
  KOKKOS_INLINE_FUNCTION void block(int p, std::int64_t i0, int len, const Segments& seg,
                                    FoldCarry& carry) const {
    const CodePiece& piece = pieces(p);
    double lanes[pointwise::kMaxDepth][L];  // computed entries that vary across instances
    const double*
        at[pointwise::kMaxDepth];  // where entry sp's lanes are: lanes[sp], or an indexed read
    double scalar[pointwise::kMaxDepth];  // entries that do not vary (known when compiling)
    double* dest = seg.base[piece.destSegment] + piece.destOffset;
    // An `each` whose last operator varies writes its lanes straight into the destination.
    double* const direct = piece.fold < 0 ? dest + i0 : nullptr;
    int sp = 0;
    for (std::int64_t c = piece.codeBegin; c < piece.codeEnd; ++c) {
      const std::uint64_t word = code(c);
      const int op = static_cast<int>(pointwise::opcodeOf(word));
      if (op == static_cast<int>(pointwise::opcode::kConstant)) {
        scalar[sp++] = constants(static_cast<std::int64_t>(word >> kSegmentShift));
      } else if (op == static_cast<int>(pointwise::opcode::kRead)) {
        scalar[sp++] = seg.base[(word >> kSegmentShift) & 3][word >> kOffsetShift];
      } else if (op == static_cast<int>(pointwise::opcode::kIndexed)) {
        at[sp++] = seg.base[(word >> kSegmentShift) & 3] + (word >> kOffsetShift) + i0;
      } else if (op < static_cast<int>(pointwise::opcode::kBinary)) {
        const int u = op - static_cast<int>(pointwise::opcode::kUnary);
        if (word & kLeftUniform) {
          scalar[sp - 1] = applyUnary(u, scalar[sp - 1]);
        } else {
          unaryLanes(u, lanes[sp - 1], at[sp - 1], len);
          at[sp - 1] = lanes[sp - 1];
        }
      } else {
        const int b = op - static_cast<int>(pointwise::opcode::kBinary);
        double* out = direct && c + 1 == piece.codeEnd ? direct : lanes[sp - 2];
        const bool left = word & kLeftUniform, right = word & kRightUniform;
        if (piece.innerSum && c + 1 == piece.codeEnd && b == 2 && !left && !right) {
          // A sum of products (a dot product): straight into the sum's lanes.
          if (piece.foldFirst && i0 == 0) carry.lanes = InnerSumLanes();
          carry.lanes.add(piece.foldOffset + i0, Products{at[sp - 2], at[sp - 1]}, len);
          if (piece.foldLast && i0 + len == piece.count) *dest = carry.lanes.total();
          return;
        }
        if (left && right) {
          scalar[sp - 2] = applyBinary(b, scalar[sp - 2], scalar[sp - 1]);
        } else if (left) {
          binaryLanes(b, out, Broadcast{scalar[sp - 2]}, at[sp - 1], len);
        } else if (right) {
          binaryLanes(b, out, at[sp - 2], Broadcast{scalar[sp - 1]}, len);
        } else {
          binaryLanes(b, out, at[sp - 2], at[sp - 1], len);
        }
        if (!(left && right)) at[sp - 2] = out;
        --sp;
      }
    }
    if (piece.fold < 0) {
      if (piece.uniform) {
        for (int j = 0; j < len; ++j) dest[i0 + j] = scalar[0];
      } else if (at[0] != direct) {
        for (int j = 0; j < len; ++j) dest[i0 + j] = at[0][j];
      }
      return;
    }
    const bool first = piece.foldFirst && i0 == 0;
    if (piece.innerSum) {
      if (first) carry.lanes = InnerSumLanes();
      if (piece.uniform) {
        carry.lanes.add(piece.foldOffset + i0, Broadcast{scalar[0]}, len);
      } else {
        carry.lanes.add(piece.foldOffset + i0, at[0], len);
      }
      if (piece.foldLast && i0 + len == piece.count) *dest = carry.lanes.total();
      return;
    }
    double& acc = carry.acc;
    if (piece.uniform) {
      if (first) acc = scalar[0];
      acc = foldLanes(piece.fold, acc, Broadcast{scalar[0]}, first ? 1 : 0, len);
    } else {
      if (first) acc = at[0][0];
      acc = foldLanes(piece.fold, acc, at[0], first ? 1 : 0, len);
    }
    if (piece.foldLast && i0 + len == piece.count) *dest = acc;
  }

  // The whole program, in order, in one thread.
  template <int L>
  KOKKOS_INLINE_FUNCTION void run(const Segments& seg) const {
    FoldCarry carry;
    for (int p = 0; p < pieceCount; ++p) {
      const std::int64_t count = pieces(p).count;
      for (std::int64_t i0 = 0; i0 < count; i0 += L) {
        block<L>(p, i0, count - i0 < L ? static_cast<int>(count - i0) : L, seg, carry);
      }
    }
  }
};

template <class Memory>
PointwiseKernel<Memory> uploadPointwise(const PointwiseCode& code) {
  PointwiseKernel<Memory> out;
  out.pieces = upload<Memory>(code.pieces, "kfield::pointwise::pieces");
  out.code = upload<Memory>(code.code, "kfield::pointwise::code");
  out.constants = upload<Memory>(code.constants, "kfield::pointwise::constants");
  out.pieceCount = static_cast<int>(code.pieces.size());
  return out;
}

// Runs a whole program on an execution space, pieces in program order: an `each` wider than
// a block spreads its blocks over threads; consecutive small pieces (sets, folds, short
// eaches) run in one single-thread kernel.
template <class ExecSpace>
void runPointwise(const ExecSpace& space, const PointwiseCode& code,
                  const PointwiseKernel<typename ExecSpace::memory_space>& program,
                  const Segments& seg) {
  constexpr int L = PointwiseLanes<ExecSpace>::kSpread;
  const int pieces = static_cast<int>(code.pieces.size());
  auto wide = [&](int p) {
    const CodePiece& piece = code.pieces[static_cast<std::size_t>(p)];
    return piece.fold < 0 && piece.count > L;
  };
  for (int p = 0; p < pieces;) {
    if (wide(p)) {
      const std::int64_t count = code.pieces[static_cast<std::size_t>(p)].count;
      int last = p + 1;
      while (last < pieces && code.pieces[static_cast<std::size_t>(last)].fused) ++last;
      Kokkos::parallel_for(
          "kfield::pointwise::each", Kokkos::RangePolicy<ExecSpace>(space, 0, (count + L - 1) / L),
          KOKKOS_LAMBDA(std::int64_t b) {
            FoldCarry carry;
            const std::int64_t i0 = b * L;
            const int len = count - i0 < L ? static_cast<int>(count - i0) : L;
            for (int q = p; q < last; ++q) program.template block<L>(q, i0, len, seg, carry);
          });
      p = last;
      continue;
    }
    int end = p + 1;
    while (end < pieces && !wide(end)) ++end;
    Kokkos::parallel_for(
        "kfield::pointwise::serial", Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
        KOKKOS_LAMBDA(int) {
          FoldCarry carry;
          for (int q = p; q < end; ++q) {
            const std::int64_t count = program.pieces(q).count;
            for (std::int64_t i0 = 0; i0 < count; i0 += L) {
              program.template block<L>(q, i0, count - i0 < L ? static_cast<int>(count - i0) : L,
                                        seg, carry);
            }
          }
        });
    p = end;
  }
}

}  // namespace kfield::impl

#endif
