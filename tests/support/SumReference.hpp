// The canonical sum written straight from its definition (recursion on the padded tree), and
// data that punishes any other order: the references the sum tests compare bits against.
#ifndef KFIELD_TEST_SUMREFERENCE_HPP
#define KFIELD_TEST_SUMREFERENCE_HPP

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace kfield::test {

// The node covering [lo, lo + size) (size a power of two) of x[0..n), lo < n.
inline double referenceNode(const std::vector<double>& x, std::int64_t lo, std::int64_t size,
                            std::int64_t n) {
  if (size == 1) return x[lo];
  const std::int64_t half = size / 2;
  if (lo + half >= n) return referenceNode(x, lo, half, n);  // right child absent
  return referenceNode(x, lo, half, n) + referenceNode(x, lo + half, half, n);
}

inline double referenceSum(const std::vector<double>& x) {
  const auto n = static_cast<std::int64_t>(x.size());
  if (n == 0) return 0.0;
  std::int64_t size = 1;
  while (size < n) size *= 2;
  return referenceNode(x, 0, size, n);
}

inline double leftToRight(const std::vector<double>& x) {
  double acc = 0.0;
  for (double v : x) acc += v;
  return acc;
}

// Values whose sum depends on every association: mostly moderate magnitudes, with exact
// cancellations, values of 1e16 that absorb small neighbors, rare extremes (1e-300..1e300)
// that return later negated (so no single one decides the total), -0.0 and subnormals.
inline std::vector<double> adversarial(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_real_distribution<double> moderateExp(-3.0, 3.0);
  std::uniform_real_distribution<double> extremeExp(-300.0, 300.0);
  auto sign = [&] { return rng() % 2 ? 1.0 : -1.0; };
  std::vector<double> x(n);
  std::vector<double> pending;  // extremes to return negated
  for (std::int64_t i = 0; i < n; ++i) {
    const auto kind = rng() % 100;
    if (kind < 8) {
      x[i] = -0.0;
    } else if (kind < 18) {
      x[i] = i > 0 ? -x[i - 1] : 1.0;
    } else if (kind < 22) {
      x[i] = std::numeric_limits<double>::denorm_min() * double(rng() % 1000);
    } else if (kind < 30) {
      x[i] = sign() * mantissa(rng) * 1e16;
    } else if (kind < 32 && pending.empty() && i + 1 < n) {
      x[i] = sign() * mantissa(rng) * std::pow(10.0, extremeExp(rng));
      pending.push_back(-x[i]);
    } else if ((kind < 34 || i + 1 == n) && !pending.empty()) {
      x[i] = pending.back();  // at most one extreme is open, and it closes before the end
      pending.pop_back();
    } else {
      x[i] = sign() * mantissa(rng) * std::pow(10.0, moderateExp(rng));
    }
  }
  return x;
}

// Values around 1 with tiny tails: sums stay finite, and the order still shows in the bits.
inline std::vector<double> moderate(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& v : x) v = u(rng) + u(rng) * 1e-9;
  return x;
}

// Both kinds of data: what a sum test runs on.
inline std::vector<std::vector<double>> datasets(std::int64_t n, std::uint64_t seed) {
  return {adversarial(n, seed), moderate(n, seed + 1)};
}

template <class Space>
Kokkos::View<double*, typename Space::memory_space> onSpace(const std::vector<double>& x) {
  Kokkos::View<double*, typename Space::memory_space> v("x", x.size());
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(x.data(), x.size());
  Kokkos::deep_copy(v, host);
  return v;
}

}  // namespace kfield::test

#endif
