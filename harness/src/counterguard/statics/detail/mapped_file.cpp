// SPDX-License-Identifier: Apache-2.0
#include "mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {

mapped_file::mapped_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw input_error(source_location{path}, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    throw input_error(source_location{path}, "", "not a regular file",
                      "name an executable, a shared library, a .cubin or a .fatbin file");
  }
  m_size = static_cast<std::size_t>(status.st_size);
  if (m_size > 0) {
    void* mapping = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      throw input_error(source_location{path}, "",
                        std::string("cannot map the file: ") + std::strerror(error));
    }
    m_data = static_cast<const std::uint8_t*>(mapping);
  }
  ::close(fd);
}

mapped_file::~mapped_file() {
  if (m_data != nullptr)
    ::munmap(const_cast<std::uint8_t*>(m_data), m_size);
}

}  // namespace counterguard::detail
