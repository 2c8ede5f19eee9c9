#include "CompileTrace.hpp"

#include "kfield/impl/Bits.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kfield::impl {

namespace {

// Operations that evaluate an entry program: folds, and exchanges' sends.
bool readsEntries(const Op& op) {
  return op.code == OpCode::Fold || op.code == OpCode::ExchangeSend;
}

// Keeps the ops marked in `keep` (and their description nodes), renumbering the values:
// values are op indices here.
void keepOps(TracedProgram& t, const std::vector<char>& keep) {
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<std::int32_t> index(static_cast<std::size_t>(n), -1);
  std::vector<Op> kept;
  for (std::int32_t i = 0; i < n; ++i) {
    if (!keep[static_cast<std::size_t>(i)]) continue;
    index[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(kept.size());
    kept.push_back(t.ops[static_cast<std::size_t>(i)]);
  }
  auto renumber = [&](std::int32_t& v) {
    if (v >= 0) v = index[static_cast<std::size_t>(v)];
  };
  for (Op& op : kept) {
    renumber(op.out), renumber(op.a.slot), renumber(op.b.slot), renumber(op.c.slot);
    renumber(op.mask), renumber(op.context);
  }
  // Entry slots of dropped values are never read: -1 keeps them from being used.
  for (EntryOp& e : t.entries) renumber(e.slot);
  t.ops = std::move(kept);
  // The description lists what runs: one node per kept operation.
  std::vector<graph::Node> nodes;
  for (std::int32_t i = 0; i < n; ++i) {
    if (keep[static_cast<std::size_t>(i)]) {
      nodes.push_back(std::move(t.description.nodes[static_cast<std::size_t>(i)]));
    }
  }
  t.description.nodes = std::move(nodes);
}

// Removes operations whose value nothing reads and that write nothing kept across rounds (for
// instance the read of a shared value that only feeds an exclude-self fold: every round would
// sweep the export plane for nothing). Values are op indices here; they are renumbered.
void dropDeadOps(TracedProgram& t) {
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<char> live(static_cast<std::size_t>(n), 0);
  auto effect = [](const Op& op) {
    return op.code == OpCode::Export || op.code == OpCode::RememberWrite ||
           op.code == OpCode::Output || op.code == OpCode::ExchangeSend ||
           (op.code == OpCode::ShareRead && op.keyed != 0);
  };
  auto mark = [&](std::int32_t v) {
    if (v >= 0) live[static_cast<std::size_t>(v)] = 1;
  };
  for (std::int32_t i = n - 1; i >= 0; --i) {
    const Op& op = t.ops[static_cast<std::size_t>(i)];
    if (effect(op)) live[static_cast<std::size_t>(i)] = 1;
    if (!live[static_cast<std::size_t>(i)]) continue;
    mark(op.a.slot), mark(op.b.slot), mark(op.c.slot), mark(op.mask), mark(op.context);
    if (!readsEntries(op)) continue;
    const bool visitsSelf =
        op.code == OpCode::ExchangeSend || op.excludeSelf == 0 || op.fold == FoldCode::Self;
    for (std::int32_t k = 0; k < op.entryCount; ++k) {
      const EntryOp& e = t.entries[static_cast<std::size_t>(op.entryBegin + k)];
      // A neighbor entry's own slot is read only for the device itself.
      if (e.code == EntryCode::Local || visitsSelf) mark(e.slot);
    }
  }
  keepOps(t, live);
}

// Export planes that hold the same value every round: unconditional, unkeyed exports of one
// value. FCPP's weighted collection takes nbr of the distance its gradient shares: every
// entry of the nbr is a value sent last round, and so is every entry of the share's plane.
// Readers of the later plane read the first one (written earlier in the round, so a device's
// own current entry is there too), and the later export goes: a round writes one plane fewer
// and its folds sweep one fewer. ShareRead ops keep their own initial values, and in a
// sample's first round no neighbor's entry is read. Not inside spawns (their planes are
// numbered in strides).
void aliasSameExports(TracedProgram& t) {
  if (!t.spawns.empty()) return;
  const auto planes = static_cast<std::int32_t>(t.exports.size());
  std::vector<std::int32_t> writer(static_cast<std::size_t>(planes), -1),
      writes(static_cast<std::size_t>(planes), 0);
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(t.ops.size()); ++i) {
    const Op& op = t.ops[static_cast<std::size_t>(i)];
    const bool exports =
        op.code == OpCode::Export || op.code == OpCode::ExchangeSend || op.code == OpCode::SpawnKey;
    if (!exports || op.plane < 0 || op.plane >= planes) continue;
    writer[static_cast<std::size_t>(op.plane)] = i;
    ++writes[static_cast<std::size_t>(op.plane)];
  }
  auto plain = [&](std::int32_t p) {
    const std::int32_t w = writer[static_cast<std::size_t>(p)];
    if (w < 0 || writes[static_cast<std::size_t>(p)] != 1) return false;
    const Op& op = t.ops[static_cast<std::size_t>(w)];
    const PlaneInfo& info = t.exports[static_cast<std::size_t>(p)];
    return op.code == OpCode::Export && op.mask < 0 && op.context < 0 && op.keyed == 0 &&
           !info.keyed && info.edge < 0;
  };
  auto sameValue = [](const Operand& x, const Operand& y) {
    return x.slot >= 0 ? x.slot == y.slot : y.slot < 0 && bitsOf(x.constant) == bitsOf(y.constant);
  };
  std::vector<std::int32_t> into(static_cast<std::size_t>(planes));
  for (std::int32_t p = 0; p < planes; ++p) into[static_cast<std::size_t>(p)] = p;
  std::vector<char> keep(t.ops.size(), 1);
  bool any = false;
  for (std::int32_t q = 0; q < planes; ++q) {
    if (!plain(q)) continue;
    const Op& later = t.ops[static_cast<std::size_t>(writer[static_cast<std::size_t>(q)])];
    std::int32_t first = -1;
    for (std::int32_t p = 0; p < planes; ++p) {
      if (p == q || into[static_cast<std::size_t>(p)] != p || !plain(p)) continue;
      const std::int32_t w = writer[static_cast<std::size_t>(p)];
      if (w < writer[static_cast<std::size_t>(q)] &&
          sameValue(t.ops[static_cast<std::size_t>(w)].a, later.a) &&
          (first < 0 || w < writer[static_cast<std::size_t>(first)])) {
        first = p;
      }
    }
    if (first < 0) continue;
    into[static_cast<std::size_t>(q)] = first;
    keep[static_cast<std::size_t>(writer[static_cast<std::size_t>(q)])] = 0;
    any = true;
  }
  if (!any) return;
  std::vector<std::int32_t> index(static_cast<std::size_t>(planes), -1);
  std::vector<PlaneInfo> exports;
  for (std::int32_t p = 0; p < planes; ++p) {
    if (into[static_cast<std::size_t>(p)] != p) continue;
    index[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(exports.size());
    exports.push_back(t.exports[static_cast<std::size_t>(p)]);
  }
  auto moved = [&](std::int32_t p) {
    return index[static_cast<std::size_t>(into[static_cast<std::size_t>(p)])];
  };
  for (Op& op : t.ops) {
    const bool readsExport = op.code == OpCode::Export || op.code == OpCode::ShareRead ||
                             op.code == OpCode::ExchangeSend || op.code == OpCode::SpawnKey;
    if (readsExport && op.plane >= 0) op.plane = moved(op.plane);
  }
  for (EntryOp& e : t.entries) {
    if ((e.code == EntryCode::Neighbor || e.code == EntryCode::Received) && e.plane >= 0)
      e.plane = moved(e.plane);
  }
  // The description names planes by path: the later plane's readers read the first one's.
  for (graph::Node& node : t.description.nodes) {
    for (std::vector<std::string>* keys : {&node.reads, &node.writes}) {
      for (std::string& key : *keys) {
        for (std::int32_t q = 0; q < planes; ++q) {
          const std::int32_t p = into[static_cast<std::size_t>(q)];
          if (p != q && key == "export:" + t.exports[static_cast<std::size_t>(q)].path) {
            key = "export:" + t.exports[static_cast<std::size_t>(p)].path;
          }
        }
      }
    }
  }
  t.exports = std::move(exports);
  keepOps(t, keep);
}

// Scratch slots: a value lives from its op to its last use; slots are reused after that.
void allocateSlots(TracedProgram& t) {
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<std::int32_t> lastUse(n, -1);
  auto use = [&](std::int32_t v, std::int32_t at) {
    if (v >= 0) lastUse[v] = std::max(lastUse[v], at);
  };
  for (std::int32_t i = 0; i < n; ++i) {
    const Op& op = t.ops[i];
    use(op.a.slot, i), use(op.b.slot, i), use(op.c.slot, i), use(op.mask, i), use(op.context, i);
    for (std::int32_t k = 0; readsEntries(op) && k < op.entryCount; ++k) {
      use(t.entries[op.entryBegin + k].slot, i);
    }
  }
  std::vector<std::int32_t> slotOf(n, -1), freeSlots;
  std::vector<std::vector<std::int32_t>> dying(n);
  for (std::int32_t v = 0; v < n; ++v) {
    if (t.ops[v].out >= 0) dying[std::max(lastUse[v], v)].push_back(v);
  }
  std::int32_t slots = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (t.ops[i].out >= 0) {
      if (freeSlots.empty()) freeSlots.push_back(slots++);
      slotOf[i] = freeSlots.back();
      freeSlots.pop_back();
    }
    for (std::int32_t v : dying[i]) freeSlots.push_back(slotOf[v]);
  }
  auto remap = [&](std::int32_t& v) {
    if (v >= 0) v = slotOf[v];
  };
  for (Op& op : t.ops) {
    remap(op.out), remap(op.a.slot), remap(op.b.slot), remap(op.c.slot);
    remap(op.mask), remap(op.context);
  }
  for (EntryOp& e : t.entries) remap(e.slot);
  t.slots = slots;
}

// One slot per value, in op order: the ops as the reversal's tape runs them.
void numberValues(TracedProgram& t) {
  const auto n = static_cast<std::int32_t>(t.ops.size());
  std::vector<std::int32_t> slotOf(static_cast<std::size_t>(n), -1);
  std::int32_t slots = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (t.ops[static_cast<std::size_t>(i)].out >= 0) slotOf[static_cast<std::size_t>(i)] = slots++;
  }
  auto remap = [&](std::int32_t& v) {
    if (v >= 0) v = slotOf[static_cast<std::size_t>(v)];
  };
  t.valueOps = t.ops;
  t.valueEntries = t.entries;
  for (Op& op : t.valueOps) {
    remap(op.out), remap(op.a.slot), remap(op.b.slot), remap(op.c.slot);
    remap(op.mask), remap(op.context);
  }
  for (EntryOp& e : t.valueEntries) remap(e.slot);
  t.valueSlots = slots;
}

// A lexicographic fold's components are consecutive plain folds in the trace (a live one
// needs those before it, so the kept ones are a prefix). In a round's ops the first becomes
// one fold over every component's own entry program, in one pass over the neighbors
// (RoundKernel::lexicographicFold), and the others FoldComponent ops naming the slots it
// writes. Safe to write them all at the first: no value dies inside the group (the last
// component's fold reads every component's entries and the results before it), so their slots
// were free before it. The reversal's valueOps keep the plain folds: the same bits.
void fuseLexicographicFolds(TracedProgram& t) {
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    if (t.ops[i].code != OpCode::Fold || t.ops[i].component != 0) continue;
    std::size_t width = 1;
    while (i + width < t.ops.size() && t.ops[i + width].code == OpCode::Fold &&
           t.ops[i + width].component == static_cast<std::int32_t>(width)) {
      ++width;
    }
    if (width < 2 || width > std::size_t(kMaxLexicographicComponents)) continue;
    for (std::size_t k = 0; k < width; ++k) {
      Op& op = t.ops[i + k];
      op.entryBegin = op.componentBegin;
      op.entryCount = op.componentCount;
      if (k > 0) op.code = OpCode::FoldComponent;
    }
    t.ops[i].lexicographic = static_cast<std::int32_t>(width);
    i += width - 1;
  }
}

bool sameEntryOp(const EntryOp& x, const EntryOp& y) {
  return x.code == y.code && x.a == y.a && x.b == y.b && x.c == y.c && x.plane == y.plane &&
         x.keyed == y.keyed && x.edge == y.edge && x.slot == y.slot &&
         bitsOf(x.constant) == bitsOf(y.constant) && x.copies == y.copies && x.copy == y.copy &&
         x.copyStride == y.copyStride;
}

// An exchange's send whose entry program starts with a fold's (FCPP's weighted collection
// sums its weights, then sends each neighbor its weight over the sum: the weight's program,
// up to 20 entry operations, twice). Pairs such a fold with the first send after it that
// repeats its whole program, where every value that program reads is the same at the send:
// no op between them writes a slot it reads or an export plane it reads the device's own
// value from. Only programs of unkeyed leaves (the pairs both visit are then the same: every
// entry, every sample, RoundKernel::sharesEntries), long enough to pay for the store.
void shareEntryPrograms(TracedProgram& t) {
  constexpr std::int32_t kLeastShared = 4;
  const std::size_t n = t.ops.size();
  for (std::size_t f = 0; f < n; ++f) {
    Op& fold = t.ops[f];
    if (fold.code != OpCode::Fold || fold.component >= 0 || fold.fold == FoldCode::Self ||
        fold.fold == FoldCode::Count || fold.excludeSelf != 0 || fold.mask >= 0 ||
        fold.context >= 0 || fold.entryCount < kLeastShared) {
      continue;
    }
    const EntryOp* program = &t.entries[static_cast<std::size_t>(fold.entryBegin)];
    bool plain = true;
    for (std::int32_t r = 0; r < fold.entryCount; ++r) {
      plain = plain && program[r].keyed == 0 && program[r].copies == 0;
    }
    if (!plain) continue;
    // Does op i change a value the program reads? (A lexicographic fold writes its
    // components' slots too, named by the FoldComponent ops after it.)
    auto changesProgram = [&](std::size_t i) {
      const Op& op = t.ops[i];
      const std::size_t parts = op.lexicographic > 1 ? std::size_t(op.lexicographic) : 1;
      for (std::int32_t r = 0; r < fold.entryCount; ++r) {
        const EntryOp& x = program[r];
        for (std::size_t c = i; c < i + parts && c < n; ++c) {
          if (t.ops[c].out >= 0 && x.slot == t.ops[c].out) return true;
        }
        const bool ownExport = x.code == EntryCode::Neighbor && x.slot < 0;
        const bool writesExport = op.code == OpCode::Export || op.code == OpCode::ExchangeSend;
        if (ownExport && writesExport && op.plane == x.plane) return true;
      }
      return false;
    };
    if (changesProgram(f)) continue;
    for (std::size_t s = f + 1; s < n; ++s) {
      Op& send = t.ops[s];
      if (send.code == OpCode::ExchangeSend && send.sharedEntries == 0 && send.keyed == 0 &&
          send.mask < 0 && send.context < 0 && send.entryCount > fold.entryCount) {
        const EntryOp* sent = &t.entries[static_cast<std::size_t>(send.entryBegin)];
        bool repeats = true;
        for (std::int32_t r = 0; r < send.entryCount && repeats; ++r) {
          if (r < fold.entryCount) {
            repeats = sameEntryOp(sent[r], program[r]);
            continue;
          }
          // The rest reads of the shared part only its result.
          const std::int32_t last = fold.entryCount - 1;
          for (std::int32_t operand : {sent[r].a, sent[r].b, sent[r].c}) {
            repeats = repeats && (operand < 0 || operand >= last);
          }
          repeats = repeats && sent[r].keyed == 0 && sent[r].copies == 0;
        }
        if (repeats) {
          fold.keepEdge = send.edge;
          send.sharedEntries = fold.entryCount;
          break;
        }
      }
      if (changesProgram(s)) break;
    }
  }
}

}  // namespace

void compileTrace(TracedProgram& t) {
  dropDeadOps(t);
  aliasSameExports(t);
  numberValues(t);
  allocateSlots(t);
  fuseLexicographicFolds(t);
  shareEntryPrograms(t);
}

}  // namespace kfield::impl
