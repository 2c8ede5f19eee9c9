// A learner's update program compiled for an execution space, run on arrays of k parameters,
// m state words, the k-word mean and the rate, all in that space's memory: what each replica
// of a learner runs once per step.
#ifndef KFIELD_LEARN_UPDATE_HPP
#define KFIELD_LEARN_UPDATE_HPP

#include "kfield/learn/Pointwise.hpp"
#include "kfield/learn/impl/KnownUpdates.hpp"
#include "kfield/learn/impl/PointwiseKernel.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kfield {

template <class ExecSpace>
class PointwiseUpdate {
 public:
  using Memory = typename ExecSpace::memory_space;

  // update has the update layout (parameters [0, k), state [k, k + m), mean [k + m, 2k + m),
  // rate 2k + m) and writes only parameters and state; throws std::invalid_argument otherwise.
  PointwiseUpdate(const PointwiseProgram& update, std::int64_t k, std::int64_t m)
      : code_(impl::compilePointwise(
            update, {{0, k, k + m, 2 * k + m, 2 * k + m + 1}, {true, true, false, false}},
            "kfield::PointwiseUpdate")),
        kernel_(impl::uploadPointwise<Memory>(code_)),
        known_(impl::recogniseUpdate(update, k, m)),
        k_(k) {}

  // "sgd", "momentum" or "adam" where the program is that shipped rule, run by its own
  // kernel (the same operations, the same bits); "interpreted" otherwise.
  const char* kernel() const { return impl::describe(known_.kind); }

  void run(const ExecSpace& space, double* parameters, double* state, const double* mean,
           const double* rate) const {
    if (known_.kind != impl::KnownUpdate::kNone) {
      impl::runKnownUpdate(space, known_, k_, parameters, state, mean, rate);
      return;
    }
    impl::Segments seg;
    seg.base[0] = parameters;
    seg.base[1] = state;
    seg.base[2] = const_cast<double*>(mean);  // read-only segments: never written
    seg.base[3] = const_cast<double*>(rate);
    impl::runPointwise(space, code_, kernel_, seg);
  }

 private:
  impl::PointwiseCode code_;
  impl::PointwiseKernel<Memory> kernel_;
  impl::KnownUpdate known_;
  std::int64_t k_;
};

}  // namespace kfield

#endif
