// A learner's per-sample contribution: a device functor
//   void operator()(const double* parameters, const double* sample, double* out) const
// writing the sample's k-word contribution into `out` (zeroed before the call).
// PointwiseContribution runs a system's contribution program; a C++ functor (for instance
// rules::LeastSquaresGradient) must compute the same operations to give the same bits.
#ifndef KFIELD_LEARN_CONTRIBUTION_HPP
#define KFIELD_LEARN_CONTRIBUTION_HPP

#include "kfield/backends/Tuning.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/impl/PointwiseKernel.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

template <class ExecSpace>
struct PointwiseContribution {
  impl::PointwiseKernel<typename ExecSpace::memory_space> program;

  // Throws std::invalid_argument when the contribution writes outside its output.
  static PointwiseContribution of(const DataParallelSystem& system) {
    const std::int64_t k = system.parameters, s = system.sampleWidth;
    const impl::SlotLayout layout{{0, k, k + s, 2 * k + s}, {false, false, true}};
    return {impl::uploadPointwise<typename ExecSpace::memory_space>(
        impl::compilePointwise(system.contribution, layout, "kfield::PointwiseContribution"))};
  }

  KOKKOS_INLINE_FUNCTION void operator()(const double* w, const double* sample, double* out) const {
    impl::Segments seg;
    seg.base[0] = const_cast<double*>(w);  // never written: the layout marks it read-only
    seg.base[1] = const_cast<double*>(sample);
    seg.base[2] = out;
    program.template run<PointwiseLanes<ExecSpace>::value>(seg);
  }
};

}  // namespace kfield

#endif
