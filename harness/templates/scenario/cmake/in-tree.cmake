# __NAME__ (`perfgate new`): the work lives in a small library shared by the program and its
# tests; perfgate_scenario() lays out the catalog folder and adds tests/ (cmake/PerfgateScenario.cmake).
add_library(scenario___NAME___core STATIC work.cpp before.cpp after.cpp)
target_include_directories(scenario___NAME___core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(scenario___NAME___core PUBLIC perfgate::sample)

perfgate_scenario(NAME __NAME__ SOURCES __SOURCES__ LIBS __LIBS__)
