#include "kfield/learn/impl/PointwiseKernel.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>

namespace kfield::impl {

using namespace pointwise;

namespace {

int segmentOf(const SlotLayout& layout, std::int64_t slot) {
  int s = 0;
  while (s + 2 < static_cast<int>(layout.start.size()) && slot >= layout.start[s + 1]) ++s;
  return s;
}

std::uint64_t resolved(std::uint64_t op, const SlotLayout& layout, std::int64_t slot) {
  const int s = segmentOf(layout, slot);
  return op | (static_cast<std::uint64_t>(s) << kSegmentShift) |
         (static_cast<std::uint64_t>(slot - layout.start[s]) << kOffsetShift);
}

// Whether `reader`'s instance i touches what `writer`'s instances write other than at i.
bool readsOthersWrites(const PointwiseCode& code, const CodePiece& writer,
                       const CodePiece& reader) {
  const std::int64_t first = writer.destOffset, end = writer.destOffset + writer.count;
  for (std::int64_t c = reader.codeBegin; c < reader.codeEnd; ++c) {
    const std::uint64_t word = code.code[static_cast<std::size_t>(c)];
    const std::uint64_t op = opcodeOf(word);
    if (op != opcode::kRead && op != opcode::kIndexed) continue;
    if (static_cast<int>((word >> kSegmentShift) & 3) != writer.destSegment) continue;
    const auto offset = static_cast<std::int64_t>(word >> kOffsetShift);
    const std::int64_t readEnd = offset + (op == opcode::kIndexed ? reader.count : 1);
    const bool overlaps = offset < end && first < readEnd;
    if (overlaps && (op == opcode::kRead || offset != first)) return true;
  }
  return false;
}

// Whether pieces a and then b give the program's values when run block by block together.
bool interleavable(const PointwiseCode& code, const CodePiece& a, const CodePiece& b) {
  if (a.fold >= 0 || b.fold >= 0 || a.count != b.count) return false;
  const bool destsMeet = a.destSegment == b.destSegment && a.destOffset != b.destOffset &&
                         a.destOffset < b.destOffset + b.count &&
                         b.destOffset < a.destOffset + a.count;
  return !destsMeet && !readsOthersWrites(code, a, b) && !readsOthersWrites(code, b, a);
}

}  // namespace

PointwiseCode compilePointwise(const PointwiseProgram& program, const SlotLayout& layout,
                               const std::string& what) {
  validate(program, what);
  const int segments = static_cast<int>(layout.start.size()) - 1;
  if (segments < 1 || segments > kSegments || layout.start.front() != 0 ||
      layout.start.back() != program.slots ||
      static_cast<int>(layout.writable.size()) != segments) {
    invalidArgument(what, "the slot layout does not match the program's " +
                              std::to_string(program.slots) + " slots");
  }
  PointwiseCode out;
  for (std::size_t j = 0; j < program.assignments.size(); ++j) {
    const Assignment& a = program.assignments[j];
    const std::int64_t count = a.form == Form::Set ? 1 : a.count;
    // Cut [0, count) wherever the destination (each) or an indexed read crosses a segment.
    std::vector<std::int64_t> cuts{0, count};
    auto cutAt = [&](std::int64_t base) {
      for (std::int64_t start : layout.start) {
        if (start > base && start < base + count) cuts.push_back(start - base);
      }
    };
    if (a.form == Form::Each) cutAt(a.dest);
    forEachRead(a.code, [&](std::int64_t slot, bool indexed) {
      if (indexed) cutAt(slot);
    });
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const std::int64_t first = cuts[c];
      CodePiece piece;
      const std::int64_t dest = a.form == Form::Each ? a.dest + first : a.dest;
      piece.destSegment = segmentOf(layout, dest);
      if (!layout.writable[static_cast<std::size_t>(piece.destSegment)]) {
        invalidArgument(what, "assignment " + std::to_string(j) + " writes slot " +
                                  std::to_string(dest) + ", which this program may not write");
      }
      piece.destOffset = dest - layout.start[static_cast<std::size_t>(piece.destSegment)];
      piece.count = cuts[c + 1] - first;
      if (a.form == Form::Fold || a.form == Form::Sum) {
        piece.fold = static_cast<int>(a.fold);
        piece.innerSum = a.form == Form::Sum;
        piece.foldOffset = first;
        piece.foldFirst = c == 0;
        piece.foldLast = c + 2 == cuts.size();
      }
      piece.codeBegin = static_cast<std::int64_t>(out.code.size());
      std::vector<bool> uniform;  // per stack entry
      for (std::size_t w = 0; w < a.code.size(); ++w) {
        const std::uint64_t op = opcodeOf(a.code[w]);
        const std::int64_t slot = operandOf(a.code[w]);
        if (op == opcode::kConstant) {
          out.code.push_back(op | (out.constants.size() << kSegmentShift));
          out.constants.push_back(valueOf(a.code[++w]));
          uniform.push_back(true);
        } else if (op == opcode::kRead) {
          out.code.push_back(resolved(op, layout, slot));
          uniform.push_back(true);
        } else if (op == opcode::kIndexed) {
          out.code.push_back(resolved(op, layout, slot + first));
          uniform.push_back(false);
        } else if (op < opcode::kBinary) {
          out.code.push_back(op | (uniform.back() ? kLeftUniform : 0));
        } else {
          const bool right = uniform.back();
          uniform.pop_back();
          const bool left = uniform.back();
          out.code.push_back(op | (left ? kLeftUniform : 0) | (right ? kRightUniform : 0));
          uniform.back() = left && right;
        }
      }
      piece.uniform = uniform.front();
      piece.codeEnd = static_cast<std::int64_t>(out.code.size());
      out.pieces.push_back(piece);
    }
  }
  // Groups of consecutive eaches that may share one pass: each piece against the whole group.
  std::size_t group = 0;
  for (std::size_t p = 1; p < out.pieces.size(); ++p) {
    bool fits = true;
    for (std::size_t q = group; q < p && fits; ++q) {
      fits = interleavable(out, out.pieces[q], out.pieces[p]);
    }
    out.pieces[p].fused = fits;
    if (!fits) group = p;
  }
  return out;
}

}  // namespace kfield::impl
