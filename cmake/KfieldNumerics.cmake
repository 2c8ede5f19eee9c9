# The determinism contract needs a*b+c to round twice on every backend: no contraction into
# fused multiply-adds, by the host compiler or by nvcc. Public, because kfield's kernels are
# templates that compile in the user's translation units. Every compiler kfield accepts gets
# its flag; any other must be given one (KFIELD_NO_CONTRACTION_FLAGS), or CMake stops.
set(KFIELD_NO_CONTRACTION_FLAGS "" CACHE STRING
    "Flags that stop the C++ compiler fusing a*b+c (only for a compiler kfield does not know)")
if(KFIELD_NO_CONTRACTION_FLAGS)
  set(_no_contraction ${KFIELD_NO_CONTRACTION_FLAGS})
elseif(CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang|ARMClang|FujitsuClang|CrayClang)$")
  # And no errno from math functions (GPU math never sets it): sqrt then vectorises; its
  # result is correctly rounded either way, so no bit changes.
  set(_no_contraction -ffp-contract=off -fno-math-errno)
elseif(CMAKE_CXX_COMPILER_ID STREQUAL "IntelLLVM")
  # icpx defaults to -fp-model=fast: value-changing rewrites besides contraction.
  set(_no_contraction -fp-model=precise -ffp-contract=off)
elseif(CMAKE_CXX_COMPILER_ID STREQUAL "Intel")
  set(_no_contraction -fp-model=precise -no-fma)
elseif(CMAKE_CXX_COMPILER_ID MATCHES "^(NVHPC|PGI)$")
  set(_no_contraction -Mnofma)
elseif(CMAKE_CXX_COMPILER_ID STREQUAL "MSVC")
  set(_no_contraction /fp:precise)  # contracts only with /fp:contract or /fp:fast
else()
  message(FATAL_ERROR "kfield does not know how to stop ${CMAKE_CXX_COMPILER_ID} from fusing "
                      "multiply-adds, which its bit-for-bit results depend on: set "
                      "KFIELD_NO_CONTRACTION_FLAGS to the flags that do")
endif()
target_compile_options(kfield PUBLIC "$<$<COMPILE_LANGUAGE:CXX>:${_no_contraction}>")
if("Cuda" IN_LIST KFIELD_BACKENDS)
  target_compile_options(kfield PUBLIC $<$<COMPILE_LANGUAGE:CXX>:--fmad=false>)
endif()
