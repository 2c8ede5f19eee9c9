# hwloc and OpenSSL's libcrypto (SHA-256 of learner identities) required; MPI and HDF5 (each on when found unless turned off); zlib with HDF5.
find_package(hwloc REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)

find_package(MPI COMPONENTS C QUIET)
cmake_dependent_option(KFIELD_ENABLE_MPI "MPI ranks: learner owners and distributed simulations" ON "MPI_C_FOUND" OFF)
if(KFIELD_ENABLE_MPI AND NOT MPI_C_FOUND)
  message(FATAL_ERROR "KFIELD_ENABLE_MPI is ON but no MPI was found")
endif()
# What tests and benchmarks run under mpiexec with: Open MPI may run as root (CI), oversubscribe
# the cores and share memory inside containers; other MPIs ignore it.
set(KFIELD_MPI_TEST_ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
    "OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_hwloc_base_binding_policy=none"
    "OMPI_MCA_btl_vader_single_copy_mechanism=none;OMP_NUM_THREADS=2;KOKKOS_NUM_THREADS=2"
    "OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")

find_package(HDF5 COMPONENTS C QUIET)
cmake_dependent_option(KFIELD_ENABLE_HDF5 "Checkpoints and exports in HDF5" ON "HDF5_FOUND" OFF)
if(KFIELD_ENABLE_HDF5 AND NOT HDF5_FOUND)
  message(FATAL_ERROR "KFIELD_ENABLE_HDF5 is ON but no HDF5 C library was found")
endif()
if(KFIELD_ENABLE_HDF5)
  # Exports compress their chunks themselves, in parallel, as HDF5's deflate filter would.
  find_package(ZLIB REQUIRED)
endif()
