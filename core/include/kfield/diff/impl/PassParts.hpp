// What a gradient pass over one part of a distributed network asks of the other parts
// (DistributedGradient.hpp implements it over MPI; one process passes none): the halo of its
// rounds, the rows of the devices that read its own, and sums over the whole network.
#ifndef KFIELD_DIFF_IMPL_PASSPARTS_HPP
#define KFIELD_DIFF_IMPL_PASSPARTS_HPP

#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/sim/impl/PlaneExchange.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kfield::diff::impl {

// What the reverse's halo carries per reader: its values and their adjoints (value slots),
// min/max folds' selections, presence keys (export planes, when keyed), and per entry the
// adjoints of what it received and of what it sent (exchanges' edge planes).
struct ReaderLayout {
  std::int64_t values = 0, selections = 0;
  kfield::impl::HaloLayout round;
};

template <class ExecSpace>
class PassParts {
 public:
  using Memory = typename ExecSpace::memory_space;
  virtual ~PassParts() = default;

  // The local devices this part computes; every local device's id in the whole network.
  virtual IndexRange computed() const = 0;
  virtual Kokkos::View<const std::int64_t*, Memory> ids() const = 0;
  // The halo of a pass of `samples` samples: its rounds' (returned), and the readers' (after).
  virtual std::shared_ptr<kfield::impl::PlaneExchange<Memory>> begin(const ReaderLayout& layout,
                                                                     std::int64_t samples) = 0;
  // Into the ghosts' rows, from their owners, for positions [0, live): planes 0 values,
  // 1 value adjoints, 2 selections, 3 presence keys after the round, 4 received adjoints,
  // 5 send seeds.
  virtual void readers(const kfield::impl::HaloPlanes<Memory>& planes, std::int64_t live) = 0;
  // `owned`: this part's rows of `blocks` blocks of a row per device, samples across. Returns,
  // per block (or for all blocks as one sequence) and sample, the canonical sum over every
  // device of the whole network, in one process's bits.
  virtual std::vector<std::vector<double>> sums(const HostPlane& owned, std::int64_t blocks,
                                                bool oneSequence) = 0;
  // The samples per pass all parts take: the fewest any part's memory holds.
  virtual std::int64_t agree(std::int64_t samplesPerPass) = 0;
  // Throws, on every part, the first part's problem (in part order) when any part has one.
  virtual void failTogether(const std::string& problem) = 0;
};

}  // namespace kfield::diff::impl

#endif
