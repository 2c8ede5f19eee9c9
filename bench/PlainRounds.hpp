// The hop and distance gradients as plain C++ with OpenMP: std::vector, int32 neighbor ids,
// no Kokkos. What the Kokkos hand loop must itself keep up with to be a fair baseline.
#ifndef KFIELD_BENCH_PLAINROUNDS_HPP
#define KFIELD_BENCH_PLAINROUNDS_HPP

#include "HandRounds.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cstdint>
#include <limits>
#include <vector>

namespace kfield::bench {

// Space is ignored: the loop runs on OpenMP's threads (Kokkos' host threads when it is the
// OpenMP backend).
template <class Space>
class PlainRounds {
 public:
  PlainRounds(HandProgram program, const Network& net, std::int64_t samples)
      : hops_(program == HandProgram::Hop),
        n_(net.devices()),
        samples_(samples),
        offsets_(net.offsets()),
        neighbors_(net.neighbors()),
        lengths_(hops_ ? std::vector<double>() : net.lengths()),
        source_(static_cast<std::size_t>(n_ * samples), 0),
        now_(source_.size(), kInf),
        prev_(source_.size(), kInf) {
    for (std::int64_t s = 0; s < samples; ++s) source_[sourceOf(s, net) * samples + s] = 1;
  }

  void rounds(std::int64_t k) {
    for (std::int64_t r = 0; r < k; ++r) {
      if (hops_) {
        round<true>();
      } else {
        round<false>();
      }
      now_.swap(prev_);
    }
  }
  std::vector<double> output() const { return prev_; }
  static int threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  template <bool Hops>
  void round() {
    const std::int64_t n = n_, b = samples_;
    const std::int64_t* offsets = offsets_.data();
    const std::int32_t* neighbors = neighbors_.data();
    const double* lengths = lengths_.data();
    const std::uint8_t* source = source_.data();
    const double* prev = prev_.data();
    double* now = now_.data();
#ifdef _OPENMP  // a build without OpenMP runs the same loop on one thread
#pragma omp parallel for schedule(static)
#endif
    for (std::int64_t i = 0; i < n; ++i) {
      double* out = now + i * b;
      for (std::int64_t s = 0; s < b; ++s) out[s] = kInf;
      for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        const std::int64_t j = neighbors[k];
        if (j == i) continue;
        const double* in = prev + j * b;
        if (Hops) {
          for (std::int64_t s = 0; s < b; ++s) out[s] = in[s] < out[s] ? in[s] : out[s];
        } else {
          const double length = lengths[k];
          for (std::int64_t s = 0; s < b; ++s) {
            const double v = in[s] + length;
            out[s] = v < out[s] ? v : out[s];
          }
        }
      }
      const std::uint8_t* src = source + i * b;
      for (std::int64_t s = 0; s < b; ++s) out[s] = src[s] ? 0.0 : Hops ? out[s] + 1.0 : out[s];
    }
  }

  bool hops_;
  std::int64_t n_, samples_;
  const std::vector<std::int64_t>& offsets_;
  const std::vector<std::int32_t>& neighbors_;
  std::vector<double> lengths_;
  std::vector<std::uint8_t> source_;
  std::vector<double> now_, prev_;
};

}  // namespace kfield::bench

#endif
