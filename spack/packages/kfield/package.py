# Spack recipe for kfield. Backends map onto Kokkos' variants, as in Cabana's and ArborX's
# recipes: kfield builds for whatever backends the Kokkos it depends on enables.
from spack.package import *


class Kfield(CMakePackage, CudaPackage):
    """Aggregate (field-calculus) programs on Kokkos: simulation, windowed reversal and a
    data-parallel learner whose every sum runs in a fixed order (the same bits on Serial,
    OpenMP and CUDA, for any thread count, chunking and MPI rank count)."""

    # No public release or repository address yet: build from a checkout with the
    # environment's `develop` entry (spack.yaml at the top of the repository).
    version("main")

    variant("openmp", default=True, description="Build for Kokkos' OpenMP backend")
    variant("serial", default=True, description="Build for Kokkos' Serial backend")
    variant("mpi", default=True, description="MPI ranks as learner owners")
    variant("hdf5", default=True, description="HDF5 checkpoints, sample stores and exports")
    # The C++ standard of kfield and of the Kokkos it builds with (Kokkos' own variant).
    variant(
        "cxxstd",
        default="17",
        values=("17", "20"),
        multi=False,
        description="C++ standard for kfield and its Kokkos",
    )

    depends_on("cxx", type="build")
    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")

    # Tested: Kokkos 3.4 (Debian's trilinos sources) and 4.6. Kokkos 5 needs C++20 and has not
    # been built against yet.
    depends_on("kokkos@3.4:4")
    for std in ("17", "20"):
        depends_on(f"kokkos cxxstd={std}", when=f"cxxstd={std}")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial", when="+serial")
    depends_on("kokkos~cuda", when="~cuda")
    # CUDA: one place for what kfield asks of a CUDA Kokkos. Its lambdas need cuda_lambda,
    # a variant Kokkos has only up to 4; the wrapper is the compiler kfield builds with.
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    requires("^kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    conflicts(
        "cuda_arch=none",
        when="+cuda",
        msg="kfield+cuda needs a GPU architecture: add cuda_arch=<arch> (90 for H100/H200)",
    )
    conflicts("~openmp~serial~cuda", msg="kfield needs at least one Kokkos backend")

    depends_on("hwloc")
    depends_on("openssl")
    depends_on("mpi", when="+mpi")
    depends_on("hdf5~mpi", when="+hdf5~mpi")
    depends_on("hdf5+mpi", when="+hdf5+mpi")
    depends_on("zlib-api", when="+hdf5")
    depends_on("cli11")
    depends_on("nlohmann-json")
    depends_on("benchmark")
    depends_on("googletest", type="test")

    generator("ninja")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("CMAKE_CXX_STANDARD", "cxxstd"),
            self.define_from_variant("KFIELD_ENABLE_MPI", "mpi"),
            self.define_from_variant("KFIELD_ENABLE_HDF5", "hdf5"),
            self.define_from_variant("KFIELD_REQUIRE_OPENMP", "openmp"),
            self.define_from_variant("KFIELD_REQUIRE_SERIAL", "serial"),
            self.define_from_variant("KFIELD_REQUIRE_CUDA", "cuda"),
            # `spack install --test=root kfield` builds the tests; check() runs them (ctest).
            self.define("KFIELD_ENABLE_TESTS", self.run_tests),
            self.define("KFIELD_ENABLE_EXAMPLES", self.run_tests),
            self.define("KFIELD_ENABLE_BENCHMARKS", True),
        ]
        if spec.satisfies("+cuda"):
            # The wrapper's path is a property of Kokkos' package, not of its spec.
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].package.kokkos_cxx))
        return args
