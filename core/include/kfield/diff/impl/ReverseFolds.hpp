// The folds a reverse round treats apart, one numbering for the interpreted reverse and the
// compiled one: min/max folds keep the neighbor they selected (a row block each, in op order),
// and the folds and sends that read the neighbors' exports give adjoints back to them in the
// gather.
#ifndef KFIELD_DIFF_IMPL_REVERSEFOLDS_HPP
#define KFIELD_DIFF_IMPL_REVERSEFOLDS_HPP

#include "kfield/field/TracedProgram.hpp"

#include <vector>

namespace kfield::diff::impl {

struct ReverseFolds {
  std::vector<int> selectedRow;  // per value op: its block of selections, or -1
  int selections = 0;
  std::vector<int> gather;  // value ops whose folds (or sends) read neighbors' exports
};

inline ReverseFolds reverseFolds(const TracedProgram& program) {
  using kfield::impl::EntryCode;
  using kfield::impl::FoldCode;
  using kfield::impl::OpCode;
  ReverseFolds f;
  f.selectedRow.assign(program.valueOps.size(), -1);
  for (std::size_t i = 0; i < program.valueOps.size(); ++i) {
    const kfield::impl::Op& op = program.valueOps[i];
    const bool send = op.code == OpCode::ExchangeSend;
    if (op.code != OpCode::Fold && !send) continue;
    const bool select = op.fold == FoldCode::Min || op.fold == FoldCode::Max;
    if (!send && select) f.selectedRow[i] = f.selections++;
    bool readsNeighbor = false;
    for (std::int32_t k = 0; k < op.entryCount; ++k) {
      readsNeighbor =
          readsNeighbor || program.valueEntries[static_cast<std::size_t>(op.entryBegin + k)].code ==
                               EntryCode::Neighbor;
    }
    if ((send || select || op.fold == FoldCode::Sum) && readsNeighbor)
      f.gather.push_back(static_cast<int>(i));
  }
  return f;
}

}  // namespace kfield::diff::impl

#endif
