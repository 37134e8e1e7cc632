# perfgate_scenario(NAME <name> SOURCES <files...> [LIBS <targets...>] [EXTRA_FILES <files...>])
#
# Builds the scenario program <name> into the catalog folder
# ${PERFGATE_CATALOG_DIR}/<name>/ next to a copy of its scenario.json, which is exactly the
# layout the harness reads (and the layout `cmake --install` produces under share/).
function(perfgate_scenario)
  cmake_parse_arguments(S "" "NAME" "SOURCES;LIBS;EXTRA_FILES" ${ARGN})
  set(dir ${PERFGATE_CATALOG_DIR}/${S_NAME})
  add_executable(scenario_${S_NAME} ${S_SOURCES})
  set_target_properties(scenario_${S_NAME} PROPERTIES OUTPUT_NAME ${S_NAME} RUNTIME_OUTPUT_DIRECTORY ${dir})
  target_link_libraries(scenario_${S_NAME} PRIVATE perfgate::sample ${S_LIBS})
  foreach(f scenario.json ${S_EXTRA_FILES})
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${f} ${dir}/${f} COPYONLY)
  endforeach()
  install(TARGETS scenario_${S_NAME} RUNTIME DESTINATION share/perfgate/scenarios/${S_NAME})
  install(FILES scenario.json ${S_EXTRA_FILES} DESTINATION share/perfgate/scenarios/${S_NAME})
endfunction()
