# Finds Kokkos (3.4 or 4.x) and derives the list of backends kfield builds for.
# Sets KFIELD_BACKENDS (a subset of Serial;OpenMP;Cuda, in that order).
find_package(Kokkos 3.4 REQUIRED)

if(TARGET Kokkos::kokkos)
  get_target_property(_kfield_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  foreach(_dir IN LISTS _kfield_kokkos_inc)
    if(NOT _dir MATCHES "^\\$<" AND NOT EXISTS "${_dir}")
      # Debian's Trilinos Kokkos names an include directory it does not ship.
      message(FATAL_ERROR
        "Kokkos at ${Kokkos_DIR} names a missing include directory ${_dir} "
        "(Debian's Serial-only Trilinos Kokkos does this). Run scripts/setup.sh, or set "
        "-DKokkos_ROOT=<prefix> to a Kokkos built with C++17 (Spack: kokkos+openmp).")
    endif()
  endforeach()
endif()

set(KFIELD_BACKENDS "")
foreach(_backend IN ITEMS Serial OpenMP Cuda)
  kokkos_check(DEVICES ${_backend} RETURN_VALUE _kfield_has_backend)
  if(_kfield_has_backend)
    list(APPEND KFIELD_BACKENDS ${_backend})
  endif()
endforeach()
if(NOT KFIELD_BACKENDS)
  message(FATAL_ERROR "Kokkos at ${Kokkos_DIR} enables none of Serial, OpenMP, Cuda")
endif()

# A user may insist on a backend: -DKFIELD_REQUIRE_OPENMP=ON fails here when Kokkos lacks it.
foreach(_backend IN ITEMS Serial OpenMP Cuda)
  string(TOUPPER ${_backend} _upper)
  option(KFIELD_REQUIRE_${_upper} "Fail unless Kokkos enables ${_backend}" OFF)
  if(KFIELD_REQUIRE_${_upper} AND NOT _backend IN_LIST KFIELD_BACKENDS)
    message(FATAL_ERROR "KFIELD_REQUIRE_${_upper} is ON but Kokkos at ${Kokkos_DIR} "
                        "enables only: ${KFIELD_BACKENDS}")
  endif()
endforeach()

# "3.4.01" -> "3.4.1": the spelling kfield::buildInfo() derives from KOKKOS_VERSION.
string(REGEX REPLACE "\\.0+([0-9])" ".\\1" KFIELD_KOKKOS_VERSION "${Kokkos_VERSION}")
message(STATUS "kfield: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
message(STATUS "kfield: enabled backends: ${KFIELD_BACKENDS}")
