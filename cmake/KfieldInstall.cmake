# Installs the library, headers and a CMake package: find_package(kfield) -> kfield::kfield.
include(CMakePackageConfigHelpers)

set(KFIELD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kfield)
install(TARGETS kfield EXPORT kfieldTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT kfieldTargets NAMESPACE kfield:: DESTINATION ${KFIELD_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/kfieldConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/kfieldConfig.cmake
  INSTALL_DESTINATION ${KFIELD_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kfieldConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kfieldConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/kfieldConfigVersion.cmake
              cmake/Findhwloc.cmake
        DESTINATION ${KFIELD_INSTALL_CMAKEDIR})
