# Spack recipe for kfield. Backends map onto Kokkos' variants, as in Cabana's and ArborX's
# recipes: kfield builds for whatever backends the Kokkos it depends on enables.
from spack.package import *


class Kfield(CMakePackage, CudaPackage):
    """Aggregate (field-calculus) programs on Kokkos: simulation, windowed reversal and a
    data-parallel learner whose every sum runs in a fixed order (the same bits on Serial,
    OpenMP and CUDA, for any thread count, chunking and MPI rank count)."""

    # No public release yet: build from a checkout with the environment's `develop` entry
    # (spack.yaml at the top of the repository).
    version("main")

    variant("openmp", default=True, description="Build for Kokkos' OpenMP backend")
    variant("serial", default=True, description="Build for Kokkos' Serial backend")
    variant("mpi", default=True, description="MPI ranks as learner owners")
    variant("hdf5", default=True, description="HDF5 checkpoints, learner state, exports")

    depends_on("cxx", type="build")
    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("ninja", type="build")

    depends_on("kokkos@3.4:")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial", when="+serial")
    depends_on("kokkos~cuda", when="~cuda")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(
            f"kokkos+cuda+cuda_lambda+wrapper cuda_arch={arch}", when=f"+cuda cuda_arch={arch}"
        )
    conflicts("~openmp~serial~cuda", msg="kfield needs at least one Kokkos backend")

    depends_on("hwloc")
    depends_on("openssl")
    depends_on("mpi", when="+mpi")
    depends_on("hdf5~mpi", when="+hdf5~mpi")
    depends_on("hdf5+mpi", when="+hdf5+mpi")
    depends_on("cli11")
    depends_on("nlohmann-json")
    depends_on("googletest", type=("build", "test"))
    depends_on("benchmark", type=("build", "link"))

    generator("ninja")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("KFIELD_ENABLE_MPI", "mpi"),
            self.define_from_variant("KFIELD_ENABLE_HDF5", "hdf5"),
            self.define_from_variant("KFIELD_REQUIRE_OPENMP", "openmp"),
            self.define_from_variant("KFIELD_REQUIRE_SERIAL", "serial"),
            self.define_from_variant("KFIELD_REQUIRE_CUDA", "cuda"),
            self.define("KFIELD_ENABLE_TESTS", self.run_tests),
            self.define("KFIELD_ENABLE_EXAMPLES", self.run_tests),
            self.define("KFIELD_ENABLE_BENCHMARKS", True),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        return args
