// The execution space that the OpenMP test binary checks.
#ifndef KFIELD_TEST_CATEGORY_HPP
#define KFIELD_TEST_CATEGORY_HPP

#include <Kokkos_Core.hpp>

namespace kfield::test {
using TestSpace = Kokkos::OpenMP;
}

#endif
