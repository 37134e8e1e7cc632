# __NAME__ (`perfgate new`), built on its own against an installed perfgate SDK (README.md: how
# to build, test and run it). scenario.json's "program" is build/__NAME__: configure into build/.
cmake_minimum_required(VERSION 3.20)
project(__NAME__ LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)  # measure optimised code, as it ships
endif()

find_package(perfgate REQUIRED)  # perfgate::sdk: the scenario SDK, header-only (links nothing)
__PACKAGES__
add_library(scenario___NAME___core STATIC work.cpp before.cpp after.cpp)
target_include_directories(scenario___NAME___core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(scenario___NAME___core PUBLIC perfgate::sdk)

add_executable(scenario___NAME__ __SOURCES__)
set_target_properties(scenario___NAME__ PROPERTIES OUTPUT_NAME __NAME__)
target_link_libraries(scenario___NAME__ PRIVATE __LIBS__)
perfgate_manifest_lies(scenario___NAME__ scenario.json)  # the lies it accepts: scenario.json's, declared once

enable_testing()
find_package(GTest REQUIRED)
add_subdirectory(tests)
