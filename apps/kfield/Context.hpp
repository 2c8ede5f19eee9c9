// The context a result is reported with (kfield info --json, kfield repro --json): kfield's
// version and revision, build type, compiler and flags, Kokkos and its backends, the hwloc
// topology and binding, MPI, HDF5, the numerical contract and the OpenMP settings in force.
#ifndef KFIELD_APPS_CONTEXT_HPP
#define KFIELD_APPS_CONTEXT_HPP

#include <nlohmann/json.hpp>

namespace kfield::cli {

nlohmann::ordered_json contextJson();

}  // namespace kfield::cli

#endif
