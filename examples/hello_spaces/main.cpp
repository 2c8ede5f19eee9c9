// The smallest kfield program: start the runtime, then run one kernel on every enabled
// execution space and show that each returns the same bits.
#include <kfield/kfield.hpp>

#include <cstdio>
#include <cstring>

// Sum of 1/(i+1) over i in [0, n), one term per element, added up on the host in order.
template <class Space>
double harmonic(int n) {
  Kokkos::View<double*, Space> terms("terms", n);
  Kokkos::parallel_for(
      "hello::terms", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(int i) { terms(i) = 1.0 / (i + 1); });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), terms);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += host(i);
  return sum;
}

int main(int argc, char* argv[]) {
  kfield::Runtime runtime(argc, argv);
  const kfield::BuildInfo build = kfield::buildInfo();
  std::printf("kfield %s on Kokkos %s\n", build.version.c_str(), build.kokkosVersion.c_str());
  std::printf("%s\n", kfield::describe(kfield::readTopology()).c_str());
  kfield::forEachEnabledSpace([](auto tag) {
    using Space = typename decltype(tag)::type;
    const double h = harmonic<Space>(1000000);
    unsigned long long bits;
    std::memcpy(&bits, &h, sizeof bits);
    std::printf("%-7s H(10^6) = %.17g (bits %016llx)\n", Space::name(), h, bits);
  });
  return 0;
}
