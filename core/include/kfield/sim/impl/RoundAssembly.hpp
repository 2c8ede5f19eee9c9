// The one place a round kernel is put together from a program's code, a network and planes:
// the plain round, the round that keeps its values on a tape, and the forward half of the
// reversal's rounds all start from it.
#ifndef KFIELD_SIM_IMPL_ROUNDASSEMBLY_HPP
#define KFIELD_SIM_IMPL_ROUNDASSEMBLY_HPP

#include "kfield/field/TracedProgram.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/net/NetworkView.hpp"
#include "kfield/sim/impl/RoundKernel.hpp"
#include "kfield/sim/impl/RoundPlanes.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield::impl {

// A program's operations where the rounds run them: with scratch slots reused (what rounds
// replay), and with a slot of its own for every value (what a tape keeps).
template <class ExecSpace>
class RoundAssembly {
 public:
  using Memory = typename ExecSpace::memory_space;

  RoundAssembly() = default;
  explicit RoundAssembly(const TracedProgram& program)
      : ops_(upload<Memory>(program.ops, "kfield::sim::ops")),
        entries_(upload<Memory>(program.entries, "kfield::sim::entries")),
        tapeOps_(upload<Memory>(program.valueOps, "kfield::sim::tape_ops")),
        tapeEntries_(upload<Memory>(program.valueEntries, "kfield::sim::tape_entries")),
        slots_(program.slots),
        tapeSlots_(program.valueSlots) {}

  // The kernel of a round of every device over `planes`, its values in scratch or, `onTape`,
  // one slot per value (the caller gives the tape or the reversal's buffers). What a round
  // adds (live samples, the clock, tiles) the caller sets.
  RoundKernel<ExecSpace> kernel(bool onTape, const NetworkView<Memory>& net,
                                const Kokkos::View<double*, Memory>& parameters,
                                const RoundPlanes<Memory>& planes, std::int64_t devices) const {
    RoundKernel<ExecSpace> k;
    k.ops = onTape ? tapeOps_ : ops_;
    k.entries = onTape ? tapeEntries_ : entries_;
    k.slots = onTape ? tapeSlots_ : slots_;
    k.opCount = static_cast<int>(k.ops.extent(0));
    k.net = net;
    k.parameters = parameters;
    k.planes = planes;
    k.devices = devices;
    return k;
  }

 private:
  Kokkos::View<Op*, Memory> ops_;
  Kokkos::View<EntryOp*, Memory> entries_;
  Kokkos::View<Op*, Memory> tapeOps_;
  Kokkos::View<EntryOp*, Memory> tapeEntries_;
  int slots_ = 0, tapeSlots_ = 0;
};

}  // namespace kfield::impl

#endif
