# Script mode: configure SOURCE against the kfield installed in PREFIX, build, run.
file(REMOVE_RECURSE "${BUILD}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE}" -B "${BUILD}" -G "${GENERATOR}"
                        -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
                        -Dkfield_ROOT=${PREFIX}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "configuring the examples against ${PREFIX} failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BUILD}"
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "building the examples against ${PREFIX} failed:\n${out}")
endif()
foreach(program "${BUILD}/hello_spaces" "${BUILD}/gradient" "${BUILD}/obstacle_avoidance"
                "${PREFIX}/bin/kfield;info" "${PREFIX}/bin/kfield;run;hop-gradient;--network;grid:50x50")
  execute_process(COMMAND ${program} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${program} (built against ${PREFIX}) failed:\n${out}")
  endif()
  message(STATUS "${out}")
endforeach()
