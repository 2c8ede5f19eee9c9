# The determinism contract needs a*b+c to round twice on every backend: no contraction into
# fused multiply-adds, by the host compiler or by nvcc. Public, because kfield's kernels are
# templates that compile in the user's translation units.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(kfield PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)
endif()
if("Cuda" IN_LIST KFIELD_BACKENDS)
  target_compile_options(kfield PUBLIC $<$<COMPILE_LANGUAGE:CXX>:--fmad=false>)
endif()
