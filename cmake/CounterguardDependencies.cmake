# SPDX-License-Identifier: Apache-2.0
# Everything counterguard builds with. All are Debian/Ubuntu packages (tools/setup.sh) except the CUDA toolkit.
# A project that uses the installed package needs none of them: the package's library carries what it uses and
# the shared libraries it needs (cmake/CounterguardInstall.cmake); counterguardConfig.cmake finds CUDA only.
find_package(CUDAToolkit REQUIRED)
find_package(CUPTIProfilerHost REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(muparser REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Boost 1.74 CONFIG REQUIRED)  # header-only: Boost.Math (Student t quantiles of the noise model)
find_package(SQLite3 REQUIRED)
find_package(OpenSSL COMPONENTS Crypto REQUIRED)
find_package(PkgConfig REQUIRED)
# Fat binary entries may be LZ4- or Zstandard-compressed (static --binary).
if(NOT TARGET PkgConfig::LZ4)
  pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)
endif()
if(NOT TARGET PkgConfig::ZSTD)
  pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
endif()
# GoogleTest: counterguard's own tests need it, and counterguard::gtest links it when it is found.
find_package(GTest QUIET)
