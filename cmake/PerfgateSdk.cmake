# The scenario SDK as a package for projects outside this tree: the headers of
# harness/include/perfgate, perfgateConfig.cmake (an INTERFACE target perfgate::sdk and
# perfgate_manifest_lies()) and perfgate.pc. `cmake --install build --prefix P` (or `--component sdk`: these files alone)
# puts them under P; the build tree carries the same two files pointing at the source headers,
# so `-DCMAKE_PREFIX_PATH=<build dir>` works before any install. Header-only: a program links
# no library of perfgate's, and no -lxxhash (sample.hpp compiles xxHash inline).
include(CMakePackageConfigHelpers)
set(_perfgate_sdk_templates ${CMAKE_CURRENT_LIST_DIR})
set(_perfgate_sdk_cmake_dir share/cmake/perfgate)  # arch-independent: <prefix>/share/cmake/<name> is searched

# Writes perfgateConfig.cmake and its version file into `cmake_stage` and perfgate.pc into
# `pc_stage`, for the headers at `include_dir` (relative: under the prefix `prefix`; absolute: as is).
function(_perfgate_sdk_package cmake_stage pc_stage include_dir prefix)
  set(PERFGATE_SDK_INCLUDE_DIR ${include_dir})
  configure_package_config_file(${_perfgate_sdk_templates}/perfgateConfig.cmake.in ${cmake_stage}/perfgateConfig.cmake
    INSTALL_DESTINATION ${_perfgate_sdk_cmake_dir} INSTALL_PREFIX ${prefix}
    PATH_VARS PERFGATE_SDK_INCLUDE_DIR NO_SET_AND_CHECK_MACRO)
  write_basic_package_version_file(${cmake_stage}/perfgateConfigVersion.cmake VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
  if(IS_ABSOLUTE ${include_dir})
    set(PERFGATE_PC_INCLUDEDIR ${include_dir})
  else()
    set(PERFGATE_PC_INCLUDEDIR "\${prefix}/${include_dir}")
  endif()
  configure_file(${_perfgate_sdk_templates}/perfgate.pc.in ${pc_stage}/perfgate.pc @ONLY)
  configure_file(${_perfgate_sdk_templates}/PerfgateManifestLies.cmake ${cmake_stage}/PerfgateManifestLies.cmake COPYONLY)
endfunction()

# The build tree: share/cmake/perfgate and share/pkgconfig beside bin/ and share/perfgate.
set(_perfgate_sdk_source_include ${PROJECT_SOURCE_DIR}/harness/include)
_perfgate_sdk_package(${PERFGATE_STAGE_DIR}/${_perfgate_sdk_cmake_dir} ${PERFGATE_STAGE_DIR}/share/pkgconfig
                      ${_perfgate_sdk_source_include} ${PERFGATE_STAGE_DIR})

# An install: the same, relative to wherever the prefix is (relocatable).
set(_perfgate_sdk_install_stage ${CMAKE_BINARY_DIR}/sdk-install)
_perfgate_sdk_package(${_perfgate_sdk_install_stage} ${_perfgate_sdk_install_stage} include ${CMAKE_INSTALL_PREFIX})
install(DIRECTORY ${_perfgate_sdk_source_include}/perfgate DESTINATION include COMPONENT sdk
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${_perfgate_sdk_install_stage}/perfgateConfig.cmake ${_perfgate_sdk_install_stage}/perfgateConfigVersion.cmake
              ${_perfgate_sdk_install_stage}/PerfgateManifestLies.cmake
        DESTINATION ${_perfgate_sdk_cmake_dir} COMPONENT sdk)
install(FILES ${_perfgate_sdk_install_stage}/perfgate.pc DESTINATION share/pkgconfig COMPONENT sdk)
