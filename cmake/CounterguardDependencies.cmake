# Everything counterguard builds with, found the same way by counterguard's own build and by a project that
# uses the installed package (counterguardConfig.cmake includes this file). All are Debian/Ubuntu packages
# (tools/setup.sh) except the CUDA toolkit.
include(CMakeFindDependencyMacro)

# find_package(... REQUIRED) in counterguard's own build; find_dependency inside the package's config file.
macro(_counterguard_require package)
  if(CMAKE_FIND_PACKAGE_NAME STREQUAL "counterguard")
    find_dependency(${package} ${ARGN})
  else()
    find_package(${package} ${ARGN} REQUIRED)
  endif()
endmacro()

_counterguard_require(CUDAToolkit)
_counterguard_require(CUPTIProfilerHost)
_counterguard_require(yaml-cpp)
_counterguard_require(fmt)
_counterguard_require(nlohmann_json 3.10)
_counterguard_require(CLI11)
_counterguard_require(muparser)
_counterguard_require(ZLIB)
_counterguard_require(Boost 1.74 CONFIG)  # header-only: Boost.Math (Student t quantiles of the noise model)
_counterguard_require(SQLite3)
_counterguard_require(OpenSSL COMPONENTS Crypto)
_counterguard_require(PkgConfig)
# Fat binary entries may be LZ4- or Zstandard-compressed (static --binary).
if(NOT TARGET PkgConfig::LZ4)
  pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)
endif()
if(NOT TARGET PkgConfig::ZSTD)
  pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
endif()
# The GoogleTest API (counterguard::gtest) is built when GoogleTest is there.
find_package(GTest QUIET)
