// A learner's per-sample contribution: a device functor
//   void operator()(const double* parameters, const double* sample, double* out) const
// writing the sample's k-word contribution into `out` (zeroed before the call).
// PointwiseContribution runs a system's contribution program; a C++ functor (for instance
// rules::LeastSquaresGradient) must compute the same operations to give the same bits.
#ifndef KFIELD_LEARN_CONTRIBUTION_HPP
#define KFIELD_LEARN_CONTRIBUTION_HPP

#include "kfield/backends/Tuning.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/impl/PointwiseKernel.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kfield {

namespace impl {
// A contribution that fills the per-sample rows of the local samples at once, on the host's
// command (diff::FieldContribution: the gradient of a field program through its rounds):
//   void rows(const std::vector<double>& parameters, const SampleView& samples, const RowView&
//   rows)
// marked by `static constexpr bool kRows = true`.
template <class C, class = void>
struct IsRowContribution : std::false_type {};
template <class C>
struct IsRowContribution<C, std::void_t<decltype(C::kRows)>> : std::bool_constant<C::kRows> {};

// The learner's contribution over rows already computed: the row is the contribution.
struct CopyRow {
  std::int64_t k = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const double*, const double* row, double* out) const {
    for (std::int64_t c = 0; c < k; ++c) out[c] = row[c];
  }
};
}  // namespace impl

template <class ExecSpace>
struct PointwiseContribution {
  impl::PointwiseKernel<typename ExecSpace::memory_space> program;

  // Throws std::invalid_argument when the contribution writes outside its output.
  static PointwiseContribution of(const DataParallelSystem& system) {
    if (!system.contributionIdentity.empty()) {
      impl::invalidArgument("kfield::PointwiseContribution",
                            "the system's contribution is given by its identity (a field program's "
                            "gradient): construct the learner with that contribution "
                            "(diff::FieldContribution)");
    }
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
