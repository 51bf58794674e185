# SPDX-License-Identifier: Apache-2.0
# The release: `cpack --config build/CPackConfig.cmake` (or `cmake --build build --target package`) writes
# build/package/counterguard-<version>-linux-<arch>.tar.gz, the install tree under one top folder, and
# counterguard_<version>_<arch>.deb, the same tree under /usr (Debian's python3 then finds the package in
# /usr/lib/python3/dist-packages; the bundled libraries stay private in /usr/lib/counterguard).
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_NAME "counterguard")
set(CPACK_PACKAGE_VENDOR "counterguard")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" COUNTERGUARD_PACKAGE_SYSTEM)
set(CPACK_PACKAGE_FILE_NAME "counterguard-${PROJECT_VERSION}-${COUNTERGUARD_PACKAGE_SYSTEM}")
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/package")
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_ARCHIVE_THREADS 0)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "counterguard maintainers")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# What the tool and libraries need of the system (glibc 2.34 and GCC 11's libstdc++ symbol versions; muParser's
# OpenMP runtime); the rest is bundled. The CUDA driver is the GPU host's own.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libstdc++6 (>= 11), libgcc-s1, libgomp1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
# The first line of the control file's Description is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "counterguard gates CUDA kernels on hardware counters read with CUPTI:
expectations, per-GPU baselines and reports in CI, for registered kernels, unmodified programs (exec), pytest
suites and GoogleTest binaries.")
# What `make package_source` would pack is the git tree; releases are tagged commits, so no source package.
include(CPack)
