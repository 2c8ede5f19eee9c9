// The field benchmarks' programs written by hand: the Kokkos loops the engine is measured
// against, and the host reference every variant is checked against. Semantics are the
// library's (kfield/field/Library.hpp): share rounds, neighbors' values of last round, folds
// in CSR order, the device itself left out.
#ifndef KFIELD_BENCH_HANDROUNDS_HPP
#define KFIELD_BENCH_HANDROUNDS_HPP

#include <kfield/Bits.hpp>
#include <kfield/impl/Upload.hpp>
#include <kfield/net/Network.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace kfield::bench {

enum class HandProgram : std::int64_t {
  Hop = 0,
  Distance = 1,
  Collect = 2,
  NearestSource = 3,
  CollectWeighted = 4
};

inline const char* handProgramName(HandProgram p) {
  return p == HandProgram::Hop             ? "hop-gradient"
         : p == HandProgram::Distance      ? "distance-gradient"
         : p == HandProgram::Collect       ? "collect-sum"
         : p == HandProgram::NearestSource ? "nearest-source"
                                           : "collect-weighted";
}

// Sample s has one source; collect-sum counts the devices (value 1 everywhere); nearest-source
// and collect-weighted carry valueOf.
inline std::int64_t sourceOf(std::int64_t s, const Network& net) { return s % net.devices(); }
inline double valueOf(std::int64_t d, std::int64_t s) { return double((d * 7 + s) % 13); }

inline bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (kfield::bitsOf(a[i]) != kfield::bitsOf(b[i])) return false;
  }
  return true;
}

// The output after `rounds` rounds, devices x samples, samples last: plain host code.
std::vector<double> handReference(HandProgram program, const Network& net, std::int64_t samples,
                                  std::int64_t rounds);

// collect-weighted's radius on a network: twice its longest edge (lib::programs()).
inline double weightedRadius(const Network& net) {
  double longest = 0.0;
  for (double length : net.lengths()) longest = length > longest ? length : longest;
  return 2.0 * (longest == 0.0 ? 1.0 : longest);
}

template <class Space>
class HandRounds {
 public:
  using Memory = typename Space::memory_space;
  using Plane = Kokkos::View<double**, Kokkos::LayoutRight, Memory>;

  HandRounds(HandProgram program, const Network& net, std::int64_t samples)
      : program_(program),
        n_(net.devices()),
        samples_(samples),
        net_(net.on<Memory>(program == HandProgram::Distance ||
                            program == HandProgram::NearestSource ||
                            program == HandProgram::CollectWeighted)),
        source_("source", n_, samples) {
    auto source = Kokkos::create_mirror_view(source_);
    for (std::int64_t s = 0; s < samples; ++s) source(sourceOf(s, net), s) = 1;
    Kokkos::deep_copy(source_, source);
    for (Plane* p : {&now_, &prev_}) {
      *p = Plane("hand", n_, samples);
      Kokkos::deep_copy(*p, kInf);
    }
    if (program == HandProgram::NearestSource) {  // (distance, value) pairs: (inf, value)
      value_ = Plane("value", n_, samples);
      auto value = Kokkos::create_mirror_view(value_);
      for (std::int64_t d = 0; d < n_; ++d) {
        for (std::int64_t s = 0; s < samples; ++s) value(d, s) = valueOf(d, s);
      }
      Kokkos::deep_copy(value_, value);
      for (Plane* p : {&collectedNow_, &collectedPrev_}) {
        *p = Plane("hand", n_, samples);
        Kokkos::deep_copy(*p, value_);
      }
    }
    if (program == HandProgram::CollectWeighted) {  // distances, parts sent per entry, sums
      value_ = Plane("value", n_, samples);
      auto value = Kokkos::create_mirror_view(value_);
      for (std::int64_t d = 0; d < n_; ++d) {
        for (std::int64_t s = 0; s < samples; ++s) value(d, s) = valueOf(d, s);
      }
      Kokkos::deep_copy(value_, value);
      for (Plane* p : {&parentNow_, &parentPrev_}) *p = Plane("parts", net.entries(), samples);
      for (Plane* p : {&collectedNow_, &collectedPrev_}) *p = Plane("hand", n_, samples);
      net_.reverse = impl::upload<Memory>(net.reverseEntries(), "kfield::bench::reverse");
      radius_ = weightedRadius(net);
    }
    if (program == HandProgram::Collect) {
      for (Plane* p : {&parentNow_, &parentPrev_, &collectedNow_, &collectedPrev_}) {
        *p = Plane("hand", n_, samples);
      }
      Kokkos::deep_copy(parentPrev_, -1.0);
    }
  }

  void rounds(std::int64_t k) {
    for (std::int64_t r = 0; r < k; ++r) {
      if (program_ == HandProgram::Collect) {
        collectRound();
      } else if (program_ == HandProgram::NearestSource) {
        nearestRound();
      } else if (program_ == HandProgram::CollectWeighted) {
        weightedRound(++round_ == 1);
      } else if (program_ == HandProgram::Hop) {
        gradientRound<true>();
      } else {
        gradientRound<false>();
      }
      std::swap(now_, prev_);
      std::swap(parentNow_, parentPrev_);
      std::swap(collectedNow_, collectedPrev_);
    }
  }

  static int threads() { return static_cast<int>(Space().concurrency()); }
  std::vector<double> output() const {  // nearest-source: distances, then values
    const bool collected =
        program_ == HandProgram::Collect || program_ == HandProgram::CollectWeighted;
    const Plane& out = collected ? collectedPrev_ : prev_;
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<double> result(host.data(), host.data() + host.size());
    if (program_ == HandProgram::NearestSource) {
      auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), collectedPrev_);
      result.insert(result.end(), values.data(), values.data() + values.size());
    }
    return result;
  }

  // One round. Public only because nvcc refuses device lambdas in private member functions.

  // Hops: the smallest neighbor value + 1; distance: the smallest neighbor value + length.
  // One loop per program, nothing decided inside it.
  template <bool Hops>
  void gradientRound() const {
    const auto offsets = net_.offsets;
    const auto neighbors = net_.neighbors;
    const auto lengths = net_.lengths;
    const auto source = source_;
    const Plane now = now_, prev = prev_;
    const std::int64_t samples = samples_;
    if (samples == 1) {
      Kokkos::parallel_for(
          "kfield::bench::hand_gradient", Kokkos::RangePolicy<Space>(0, n_),
          KOKKOS_LAMBDA(std::int64_t i) {
            double best = kInf;
            for (std::int64_t k = offsets(i); k < offsets(i + 1); ++k) {
              const std::int64_t j = neighbors(k);
              const double v = Hops ? prev(j, 0) : prev(j, 0) + lengths(k);
              if (j != i && v < best) best = v;
            }
            now(i, 0) = source(i, 0) ? 0.0 : Hops ? best + 1.0 : best;
          });
      return;
    }
    Kokkos::parallel_for(
        "kfield::bench::hand_gradient_batch", Kokkos::RangePolicy<Space>(0, n_),
        KOKKOS_LAMBDA(std::int64_t i) {
          double* out = &now(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) out[s] = kInf;
          for (std::int64_t k = offsets(i); k < offsets(i + 1); ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) continue;
            const double* in = &prev(j, 0);
            if (Hops) {
              for (std::int64_t s = 0; s < samples; ++s) out[s] = in[s] < out[s] ? in[s] : out[s];
            } else {
              const double length = lengths(k);
              for (std::int64_t s = 0; s < samples; ++s) {
                const double v = in[s] + length;
                out[s] = v < out[s] ? v : out[s];
              }
            }
          }
          for (std::int64_t s = 0; s < samples; ++s) {
            out[s] = source(i, s) ? 0.0 : Hops ? out[s] + 1.0 : out[s];
          }
        });
  }

  // nearest-source: the (distance, value) pair smallest first by distance, then by value, over
  // the neighbors (neighbor's distance + length, neighbor's value); (0, value) at a source,
  // (inf, value) where none is reachable. One pass, samples inner, branch-free.
  void nearestRound() const {
    const auto offsets = net_.offsets;
    const auto neighbors = net_.neighbors;
    const auto lengths = net_.lengths;
    const auto source = source_;
    const Plane distNow = now_, distPrev = prev_, valueNow = collectedNow_,
                valuePrev = collectedPrev_, value = value_;
    const std::int64_t samples = samples_;
    Kokkos::parallel_for(
        "kfield::bench::hand_nearest", Kokkos::RangePolicy<Space>(0, n_),
        KOKKOS_LAMBDA(std::int64_t i) {
          double* dist = &distNow(i, 0);
          double* carried = &valueNow(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) dist[s] = kInf, carried[s] = kInf;
          for (std::int64_t k = offsets(i); k < offsets(i + 1); ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) continue;
            const double* theirDist = &distPrev(j, 0);
            const double* theirValue = &valuePrev(j, 0);
            const double length = lengths(k);
            for (std::int64_t s = 0; s < samples; ++s) {
              const double d = theirDist[s] + length, v = theirValue[s];
              const bool better = d < dist[s] || (d == dist[s] && v < carried[s]);
              dist[s] = better ? d : dist[s];
              carried[s] = better ? v : carried[s];
            }
          }
          const double* own = &value(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) {
            const bool here = source(i, s) != 0, unreached = !(dist[s] < kInf);
            dist[s] = here ? 0.0 : dist[s];
            carried[s] = here || unreached ? own[s] : carried[s];
          }
        });
  }

  // collect-weighted: the distance gradient, then each entry's weight (radius - length) x
  // (how much nearer the neighbor's last distance is), normalised by their sum and sent per
  // entry (own part to all in a first round), and value plus the neighbors' collected sums
  // times the parts they sent last round (read at the reverse entry), in CSR order.
  void weightedRound(bool first) const {
    const auto offsets = net_.offsets;
    const auto neighbors = net_.neighbors;
    const auto lengths = net_.lengths;
    const auto reverse = net_.reverse;
    const auto source = source_;
    const Plane distNow = now_, distPrev = prev_, partNow = parentNow_, partPrev = parentPrev_,
                sumNow = collectedNow_, sumPrev = collectedPrev_, value = value_;
    const std::int64_t samples = samples_;
    const double radius = radius_;
    Kokkos::parallel_for(
        "kfield::bench::hand_weighted", Kokkos::RangePolicy<Space>(0, n_),
        KOKKOS_LAMBDA(std::int64_t i) {
          const std::int64_t begin = offsets(i), end = offsets(i + 1);
          double* dist = &distNow(i, 0);
          double* sum = &sumNow(i, 0);
          const double* before = &distPrev(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) dist[s] = kInf, sum[s] = 0.0;
          std::int64_t self = begin;
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) {
              self = k;
              continue;
            }
            const double* theirs = &distPrev(j, 0);
            const double length = lengths(k);
            for (std::int64_t s = 0; s < samples; ++s) {
              const double v = theirs[s] + length;
              dist[s] = v < dist[s] ? v : dist[s];
            }
          }
          for (std::int64_t s = 0; s < samples; ++s) dist[s] = source(i, s) ? 0.0 : dist[s];
          double* total = sum;  // the weights' sum, until the collected sum replaces it
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t j = neighbors(k);
            if (first && j != i) continue;
            const double* theirs = j != i ? &distPrev(j, 0) : first ? dist : before;
            double reach = radius - lengths(k);
            reach = reach < 0.0 ? 0.0 : reach;
            double* w = &partNow(k, 0);
            for (std::int64_t s = 0; s < samples; ++s) {
              const double nearer = theirs[s] < kInf && dist[s] < kInf ? dist[s] - theirs[s] : 0.0;
              const double m = reach * nearer;
              w[s] = m < 0.0 ? 0.0 : m;
              total[s] = total[s] + w[s];
            }
          }
          const double* own = &partNow(self, 0);
          for (std::int64_t s = 0; s < samples; ++s) {
            total[s] = total[s] == 0.0 ? 1.0 : total[s];
            partNow(self, s) = own[s] / total[s];
          }
          for (std::int64_t k = begin; k < end; ++k) {
            if (k == self) continue;
            double* w = &partNow(k, 0);
            for (std::int64_t s = 0; s < samples; ++s) w[s] = first ? own[s] : w[s] / total[s];
          }
          const double* mine = &value(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) sum[s] = 0.0;
          for (std::int64_t k = begin; k < end && !first; ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) continue;
            const double* theirs = &sumPrev(j, 0);
            const double* part = &partPrev(reverse(k), 0);
            for (std::int64_t s = 0; s < samples; ++s) sum[s] = sum[s] + theirs[s] * part[s];
          }
          for (std::int64_t s = 0; s < samples; ++s) sum[s] = mine[s] + sum[s];
        });
  }

  // collect-sum: hops; the parent (the neighbor nearest the source by hops, smallest id among
  // equals; -1 at sources and where none is reachable); value 1 plus what the children handed
  // over last round, in CSR order.
  void collectRound() const {
    const auto offsets = net_.offsets;
    const auto neighbors = net_.neighbors;
    const auto source = source_;
    const Plane hopsNow = now_, hopsPrev = prev_, parentNow = parentNow_, parentPrev = parentPrev_,
                collectedNow = collectedNow_, collectedPrev = collectedPrev_;
    const std::int64_t samples = samples_;
    Kokkos::parallel_for(
        "kfield::bench::hand_collect", Kokkos::RangePolicy<Space>(0, n_),
        KOKKOS_LAMBDA(std::int64_t i) {
          double* best = &hopsNow(i, 0);  // the smallest neighbor hops, then this round's hops
          double* parent = &parentNow(i, 0);
          double* sum = &collectedNow(i, 0);
          for (std::int64_t s = 0; s < samples; ++s) best[s] = kInf, parent[s] = kInf, sum[s] = 0.0;
          const std::int64_t begin = offsets(i), end = offsets(i + 1);
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) continue;
            const double* theirs = &hopsPrev(j, 0);
            for (std::int64_t s = 0; s < samples; ++s)
              best[s] = theirs[s] < best[s] ? theirs[s] : best[s];
          }
          for (std::int64_t k = begin; k < end; ++k) {
            const std::int64_t j = neighbors(k);
            if (j == i) continue;
            const double* theirs = &hopsPrev(j, 0);
            const double* theirParent = &parentPrev(j, 0);
            const double* handed = &collectedPrev(j, 0);
            for (std::int64_t s = 0; s < samples; ++s) {
              const double id = theirs[s] == best[s] ? double(j) : kInf;
              parent[s] = id < parent[s] ? id : parent[s];
              sum[s] += theirParent[s] == double(i) ? handed[s] : 0.0;
            }
          }
          for (std::int64_t s = 0; s < samples; ++s) {
            const double hops = source(i, s) ? 0.0 : best[s] + 1.0;
            parent[s] = hops == 0.0 || best[s] == kInf ? -1.0 : parent[s];
            best[s] = hops;
            sum[s] = 1.0 + sum[s];
          }
        });
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  HandProgram program_;
  std::int64_t n_, samples_;
  NetworkView<Memory> net_;
  Kokkos::View<std::uint8_t**, Kokkos::LayoutRight, Memory> source_;
  Plane now_, prev_;                                             // hops or distance
  Plane parentNow_, parentPrev_, collectedNow_, collectedPrev_;  // nearest-source: values
  Plane value_;          // nearest-source's and collect-weighted's sensor
  double radius_ = 0.0;  // collect-weighted (parentNow_, parentPrev_: the parts sent per entry)
  std::int64_t round_ = 0;
};

}  // namespace kfield::bench

#endif
