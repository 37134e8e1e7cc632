include(${CMAKE_CURRENT_LIST_DIR}/PerfgateManifestLies.cmake)

# perfgate_scenario(NAME <name> SOURCES <files...> [LIBS <targets...>] [EXTRA_FILES <files...>])
#
# Builds the scenario program <name> into the catalog folder
# ${PERFGATE_CATALOG_DIR}/<name>/ next to a copy of its scenario.json, which is exactly the
# layout the harness reads (and the layout `cmake --install` produces under share/). The
# program accepts the lies its scenario.json declares (perfgate_manifest_lies()). Its tests/
# folder, if its CMakeLists.txt does not add it, perfgate_scenario_tests() adds.
function(perfgate_scenario)
  cmake_parse_arguments(S "" "NAME" "SOURCES;LIBS;EXTRA_FILES" ${ARGN})
  set(dir ${PERFGATE_CATALOG_DIR}/${S_NAME})
  add_executable(scenario_${S_NAME} ${S_SOURCES})
  set_target_properties(scenario_${S_NAME} PROPERTIES OUTPUT_NAME ${S_NAME} RUNTIME_OUTPUT_DIRECTORY ${dir})
  target_link_libraries(scenario_${S_NAME} PRIVATE perfgate::sample ${S_LIBS})
  perfgate_manifest_lies(scenario_${S_NAME} ${CMAKE_CURRENT_SOURCE_DIR}/scenario.json)
  foreach(f scenario.json ${S_EXTRA_FILES})
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${f} ${dir}/${f} COPYONLY)
  endforeach()
  perfgate_sources_digest(${dir})
  install(TARGETS scenario_${S_NAME} RUNTIME DESTINATION share/perfgate/scenarios/${S_NAME})
  install(FILES scenario.json ${S_EXTRA_FILES} ${dir}/sources.sha256 DESTINATION share/perfgate/scenarios/${S_NAME})
  set_property(GLOBAL APPEND PROPERTY PERFGATE_SCENARIO_DIRS ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# perfgate_scenario_tests()
#
# After every scenario is added: each scenario's tests/ folder with a CMakeLists.txt that its own
# CMakeLists.txt did not add. So a scenario gets tests without a change to its CMakeLists.txt, a
# source its fingerprint covers (recorded baselines would go stale); tests are not sources.
function(perfgate_scenario_tests)
  if(NOT (BUILD_TESTING OR NOT DEFINED BUILD_TESTING))
    return()
  endif()
  get_property(dirs GLOBAL PROPERTY PERFGATE_SCENARIO_DIRS)
  foreach(dir ${dirs})
    get_property(added DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    if(EXISTS ${dir}/tests/CMakeLists.txt AND NOT "${dir}/tests" IN_LIST added)
      file(RELATIVE_PATH where ${CMAKE_SOURCE_DIR} ${dir}/tests)
      add_subdirectory(${dir}/tests ${CMAKE_BINARY_DIR}/${where})
    endif()
  endforeach()
endfunction()

# perfgate_sources_digest(<catalog dir>)
#
# Writes <catalog dir>/sources.sha256: one SHA-256 over the name and content of every file of
# the scenario's folder that can change what it measures — all but docs (*.md), tests (tests/,
# test_*, *_test.*), tools/ and scenario.json (whose parts that shape the work the fingerprint
# takes itself, so a new claim or a reworded title stales nothing). A baseline run recorded with other sources is stale
# (harness/src/suite/fingerprint.hpp). Any change to those files re-runs the configure step,
# so the digest follows the sources.
function(perfgate_sources_digest dir)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(FILTER files EXCLUDE REGEX "(\\.md$|^tests/|^tools/|(^|/)test_[^/]*$|_test\\.[^/]*$|^scenario\\.json$)")
  list(SORT files)
  set(listing "")
  set(absolute "")
  foreach(f ${files})
    file(SHA256 ${CMAKE_CURRENT_SOURCE_DIR}/${f} h)
    string(APPEND listing "${f} ${h}\n")
    list(APPEND absolute ${CMAKE_CURRENT_SOURCE_DIR}/${f})
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${absolute})
  string(SHA256 digest "${listing}")
  file(CONFIGURE OUTPUT ${dir}/sources.sha256 CONTENT "${digest}\n")
endfunction()

# perfgate_pg_scenario(NAME <name> SOURCES <files...> [TEST <gtest source>])
#
# A PostgreSQL scenario: the program linked with the shared PostgreSQL pieces
# (seeders/pg_scenario, the file-cloud seeders, libpq), and its gate test, one process for
# the whole suite so it shares one throwaway cluster and one seeded template.
function(perfgate_pg_scenario)
  cmake_parse_arguments(S "" "NAME;TEST" "SOURCES" ${ARGN})
  perfgate_scenario(NAME ${S_NAME} SOURCES ${S_SOURCES}
    LIBS perfgate::pg_scenario perfgate::seeder_filecloud perfgate::pg_client)
  if(S_TEST AND (BUILD_TESTING OR NOT DEFINED BUILD_TESTING))
    add_executable(test_${S_NAME}_gate ${S_TEST})
    target_link_libraries(test_${S_NAME}_gate PRIVATE perfgate::pg_test_support perfgate::pg_scenario)
    target_compile_definitions(test_${S_NAME}_gate PRIVATE SCENARIO_PROGRAM="$<TARGET_FILE:scenario_${S_NAME}>")
    add_dependencies(test_${S_NAME}_gate scenario_${S_NAME})
    add_test(NAME ${S_NAME}_gate COMMAND test_${S_NAME}_gate)
    set_tests_properties(${S_NAME}_gate PROPERTIES TIMEOUT 300 LABELS "postgres;scenario")
  endif()
endfunction()
