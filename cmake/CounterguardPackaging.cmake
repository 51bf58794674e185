# SPDX-License-Identifier: Apache-2.0
# The release tarball: `cpack --config build/CPackConfig.cmake` (or `cmake --build build --target package`)
# writes build/package/counterguard-<version>-linux-<arch>.tar.gz, the install tree under one top folder.
set(CPACK_GENERATOR "TGZ")
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
# What `make package_source` would pack is the git tree; releases are tagged commits, so no source package.
include(CPack)
