# -Wall -Wextra for kfield's own targets (not for consumers of the installed package).
function(kfield_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
    if(KFIELD_ENABLE_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
      if("Cuda" IN_LIST KFIELD_BACKENDS)
        # -Werror reaches only nvcc's host compiler; nvcc's own diagnostics (#177-D unused
        # variable, #20011-D host function called from host-device code) need their own.
        # Kokkos' nvcc_wrapper hands this one to nvcc.
        target_compile_options(${target} PRIVATE
                               $<$<COMPILE_LANGUAGE:CXX>:--Werror=all-warnings>)
      endif()
    endif()
  endif()
endfunction()
