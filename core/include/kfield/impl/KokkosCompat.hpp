// The one place where kfield bridges Kokkos 3.4 and Kokkos 4.x.
#ifndef KFIELD_IMPL_KOKKOSCOMPAT_HPP
#define KFIELD_IMPL_KOKKOSCOMPAT_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#if KOKKOS_VERSION < 30400
#error "kfield needs Kokkos 3.4 or newer"
#endif
#define KFIELD_KOKKOS_4 (KOKKOS_VERSION >= 40000)

// Before a host loop whose iterations write only their own elements (out[i] from in[i]):
// vectorise it without testing whether the arrays overlap.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KFIELD_IMPL_INDEPENDENT
#elif defined(__clang__)
#define KFIELD_IMPL_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define KFIELD_IMPL_INDEPENDENT _Pragma("GCC ivdep")
#else
#define KFIELD_IMPL_INDEPENDENT
#endif

// Before a host-device function template that host-only code also calls with host-only
// callables (the host backends' entry blocks): nvcc would flag those calls, and
// --Werror=all-warnings makes that an error.
#if defined(__CUDACC__) && !defined(__clang__)
#define KFIELD_IMPL_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define KFIELD_IMPL_EXEC_CHECK_DISABLE
#endif

namespace kfield::impl {

// Asks the host's caches for words [0, count) of p ahead of use (a hint; nothing on GPUs,
// whose many threads in flight hide memory latency).
KOKKOS_INLINE_FUNCTION void prefetch(const double* p, std::int64_t count) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && \
    !defined(__HIP_DEVICE_COMPILE__)
  for (std::int64_t c = 0; c < count; c += 8) __builtin_prefetch(p + c);
#else
  (void)p;
  (void)count;
#endif
}

namespace math {

// Kokkos 3.4 keeps its math functions in Kokkos::Experimental; 4.x moved them to Kokkos.
#if KFIELD_KOKKOS_4
namespace kmath = ::Kokkos;
#else
namespace kmath = ::Kokkos::Experimental;
#endif

#define KFIELD_IMPL_MATH_UNARY(name) \
  KOKKOS_INLINE_FUNCTION double name(double x) { return kmath::name(x); }
KFIELD_IMPL_MATH_UNARY(sqrt)
KFIELD_IMPL_MATH_UNARY(exp)
KFIELD_IMPL_MATH_UNARY(log)
KFIELD_IMPL_MATH_UNARY(fabs)
KFIELD_IMPL_MATH_UNARY(floor)
KFIELD_IMPL_MATH_UNARY(ceil)
#undef KFIELD_IMPL_MATH_UNARY

KOKKOS_INLINE_FUNCTION double fmin(double a, double b) { return kmath::fmin(a, b); }
KOKKOS_INLINE_FUNCTION double fmod(double a, double b) { return kmath::fmod(a, b); }  // exact
KOKKOS_INLINE_FUNCTION double fmax(double a, double b) { return kmath::fmax(a, b); }

KOKKOS_INLINE_FUNCTION constexpr double infinity() {
  return Kokkos::Experimental::infinity<double>::value;
}

// Kokkos 3.4 has no Kokkos::min/max/clamp; these keep std::min's tie rule (first wins).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& min(const T& a, const T& b) {
  return (b < a) ? b : a;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& max(const T& a, const T& b) {
  return (a < b) ? b : a;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr const T& clamp(const T& v, const T& lo, const T& hi) {
  return (v < lo) ? lo : (hi < v) ? hi : v;
}

}  // namespace math

// Initialises Kokkos with a thread count (0: Kokkos' own default, from the environment or
// the command line); the settings type differs between 3.4 and 4.x.
inline void initializeKokkos(int& argc, char** argv, int threads) {
  if (threads > 0) {
#if KFIELD_KOKKOS_4
    Kokkos::InitializationSettings settings;
    settings.set_num_threads(threads);
    Kokkos::initialize(settings);
#else
    Kokkos::InitArguments arguments;
    arguments.num_threads = threads;
    Kokkos::initialize(arguments);
#endif
  } else {
    Kokkos::initialize(argc, argv);
  }
}

// Kokkos' version as "major.minor.patch" (KOKKOS_VERSION is 10000*major + 100*minor + patch).
inline std::string kokkosVersion() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

}  // namespace kfield::impl

#endif
