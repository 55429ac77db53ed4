#include "loader/plugin_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <st/core/error.h>

namespace st::loader {

std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

PluginFile PluginFile::open(const std::string& path, const char* failure) {
  // O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    // A socket cannot be opened (ENXIO); say what it is rather than
    // "No such device or address".
    struct stat st {};
    if (err == ENXIO && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      ST_ERROR("plugin file '", path, "' is ", file_kind(st.st_mode), ", not a regular file");
    }
    ST_ERROR(failure, " '", path, "': ", std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    ST_ERROR("cannot stat plugin file '", path, "': ", std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    ST_ERROR("plugin file '", path, "' is ", file_kind(st.st_mode), ", not a regular file");
  }
  return PluginFile(path, fd, static_cast<uint64_t>(st.st_size), st.st_dev, st.st_ino);
}

PluginFile::PluginFile(PluginFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      dev_(other.dev_),
      ino_(other.ino_),
      head_(std::move(other.head_)),
      head_size_(std::exchange(other.head_size_, 0)) {}

PluginFile& PluginFile::operator=(PluginFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    dev_ = other.dev_;
    ino_ = other.ino_;
    head_ = std::move(other.head_);
    head_size_ = std::exchange(other.head_size_, 0);
  }
  return *this;
}

PluginFile::~PluginFile() {
  if (fd_ >= 0) ::close(fd_);
}

PluginFile PluginFile::duplicate() const {
  const int fd = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    ST_ERROR("cannot duplicate the descriptor of plugin file '", path_,
             "': ", std::strerror(errno));
  }
  return PluginFile(path_, fd, size_, dev_, ino_);
}

void PluginFile::check_range(uint64_t offset, uint64_t n) const {
  if (offset > size_ || n > size_ - offset) {
    ST_ERROR("plugin file '", path_, "' is truncated or corrupt: bytes ", offset, "..+", n,
             " lie beyond the ", size_, "-byte file");
  }
}

void PluginFile::read_head() const {
  if (head_ != nullptr || size_ == 0) return;
  const uint64_t want = std::min(size_, kHeadBytes);
  std::unique_ptr<uint8_t[]> head(new uint8_t[static_cast<size_t>(want)]);
  pread_exactly(0, want, head.get());
  head_ = std::move(head);
  head_size_ = want;
}

void PluginFile::read_at(uint64_t offset, uint64_t n, void* dst) const {
  if (const uint8_t* in_head = view(offset, n)) {
    if (n > 0) std::memcpy(dst, in_head, static_cast<size_t>(n));
    return;
  }
  pread_exactly(offset, n, dst);
}

const uint8_t* PluginFile::view(uint64_t offset, uint64_t n) const {
  check_range(offset, n);
  read_head();
  // offset + n <= size_ (checked), so the sum cannot wrap.
  if (head_ == nullptr || offset + n > head_size_) return nullptr;
  return head_.get() + offset;
}

void PluginFile::pread_exactly(uint64_t offset, uint64_t n, void* dst) const {
  auto* out = static_cast<uint8_t*>(dst);
  uint64_t done = 0;
  while (done < n) {
    const uint64_t chunk = std::min<uint64_t>(n - done, uint64_t{1} << 30);
    const ssize_t got =
        ::pread(fd_, out + done, static_cast<size_t>(chunk), static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      ST_ERROR("cannot read plugin file '", path_, "': ", std::strerror(errno));
    }
    if (got == 0) {
      ST_ERROR("plugin file '", path_, "' shrank while it was being read (", size_,
               " bytes when opened)");
    }
    done += static_cast<uint64_t>(got);
  }
}

}  // namespace st::loader
