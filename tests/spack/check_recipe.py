"""Checks spack/packages/kfield/package.py without Spack (not installable here): the recipe is
loaded against a minimal stand-in for `spack.package` that records its directives, and
cmake_args() runs on stand-in concrete specs. What Spack itself decides (concretization,
audits) is not checked here; what the recipe asks of it is.
    check_recipe.py RECIPE"""
import sys
import types


class Spec:
    """A concrete spec: variants as a dict, dependencies by name, `satisfies` for the few
    forms the recipe uses ("+v", "~v", "v=x")."""

    def __init__(self, variants, deps=None, prefix="/prefix"):
        self.variants, self.deps, self.prefix = variants, deps or {}, prefix

    def satisfies(self, text):
        for part in text.split():
            if part.startswith("+"):
                ok = self.variants.get(part[1:]) is True
            elif part.startswith("~"):
                ok = self.variants.get(part[1:]) is False
            else:
                name, value = part.split("=")
                ok = str(self.variants.get(name)) == value
            if not ok:
                return False
        return True

    def __getitem__(self, name):
        return self.deps[name]


class KokkosPackage:
    kokkos_cxx = "/kokkos/bin/nvcc_wrapper"


directives = []


def directive(kind):
    return lambda *args, **kwargs: directives.append((kind, args, kwargs))


class CMakePackage:
    def __init__(self, spec, run_tests=False):
        self.spec, self.run_tests = spec, run_tests

    def define(self, name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return f"-D{name}={value}"

    def define_from_variant(self, name, variant):
        value = self.spec.variants[variant]
        return self.define(name, value)


class CudaPackage:
    cuda_arch_values = ("80", "90")


stub = types.ModuleType("spack.package")
for kind in ("version", "variant", "depends_on", "conflicts", "requires", "generator"):
    setattr(stub, kind, directive(kind))
stub.CMakePackage, stub.CudaPackage = CMakePackage, CudaPackage
stub.__all__ = [n for n in dir(stub) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub

namespace = {}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), namespace)
Kfield = namespace["Kfield"]


def having(kind, *args, **kwargs):
    return any(k == kind and a[: len(args)] == args and all(kw.get(x) == v for x, v in kwargs.items())
               for k, a, kw in directives)


failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


# What a user asking for CUDA gets, and never silently loses.
expect(having("conflicts", "cuda_arch=none", when="+cuda"), "+cuda without cuda_arch is refused")
expect(having("depends_on", "kokkos+cuda+wrapper cuda_arch=90", when="+cuda cuda_arch=90"),
       "cuda_arch is forwarded to Kokkos with its wrapper")
expect(having("requires", "^kokkos+cuda_lambda", when="+cuda ^kokkos@:4"),
       "cuda_lambda is asked of Kokkos <= 4 only")
expect(not any("cuda_lambda" in a[0] for k, a, kw in directives if k == "depends_on"),
       "no dependency names cuda_lambda (Kokkos 5 has no such variant)")
expect(having("depends_on", "kokkos~cuda", when="~cuda"), "~cuda pulls no CUDA Kokkos")
# Versions and standards.
expect(having("depends_on", "kokkos@3.4:4"), "Kokkos is bounded to the tested 3.4..4")
for std in ("17", "20"):
    expect(having("depends_on", f"kokkos cxxstd={std}", when=f"cxxstd={std}"),
           f"cxxstd={std} is forwarded to Kokkos")
# Dependencies kfield's CMake requires.
expect(having("depends_on", "zlib-api", when="+hdf5"), "zlib with HDF5")
expect(having("depends_on", "googletest", type="test"), "GoogleTest only for tests")
expect(not having("depends_on", "ninja"), "generator('ninja') brings ninja")

cuda = Spec({"cuda": True, "cuda_arch": "90", "mpi": True, "hdf5": True, "openmp": False,
             "serial": True, "cxxstd": "17"},
            {"kokkos": types.SimpleNamespace(prefix="/kokkos", package=KokkosPackage())})
args = Kfield(cuda, run_tests=True).cmake_args()
expect("-DCMAKE_CXX_COMPILER=/kokkos/bin/nvcc_wrapper" in args, "CUDA builds use Kokkos' wrapper")
expect("-DKFIELD_REQUIRE_CUDA=ON" in args and "-DKFIELD_ENABLE_TESTS=ON" in args, str(args))
expect("-DCMAKE_CXX_STANDARD=17" in args, "the standard reaches CMake")
host = Spec(dict(cuda.variants, cuda=False, openmp=True, cxxstd="20"), cuda.deps)
args = Kfield(host).cmake_args()
expect(not any("CMAKE_CXX_COMPILER" in a for a in args), "host builds keep the compiler")
expect("-DKFIELD_ENABLE_TESTS=OFF" in args and "-DCMAKE_CXX_STANDARD=20" in args, str(args))

for f in failures:
    print("recipe:", f)
print(f"{len(directives)} directives, {len(failures)} problems")
sys.exit(1 if failures else 0)
