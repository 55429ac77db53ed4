// A plugin file opened once, read with bounds, and handed to dlopen as the
// same open file (Note [Judging and loading one file] in plugin_registry.cpp).
//
// Only regular files are accepted, checked on the open descriptor: the open
// itself never blocks (O_NONBLOCK, so a FIFO without a writer opens at once)
// and nothing is read from a device, a FIFO or a directory.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace st::loader {

class PluginFile {
 public:
  // Opens `path` read-only. Throws st::Error naming the path and what it is
  // when it is not a regular file ("a directory", "a FIFO (named pipe)",
  // "a character device", ...), or "<failure> '<path>': <reason>" when it
  // cannot be opened.
  static PluginFile open(const std::string& path, const char* failure = "cannot open plugin file");

  PluginFile(PluginFile&& other) noexcept;
  PluginFile& operator=(PluginFile&& other) noexcept;
  PluginFile(const PluginFile&) = delete;
  PluginFile& operator=(const PluginFile&) = delete;
  ~PluginFile();

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }
  uint64_t size() const { return size_; }  // st_size when opened
  dev_t device() const { return dev_; }
  ino_t inode() const { return ino_; }

  // Another descriptor of the same open file (F_DUPFD_CLOEXEC). Throws
  // st::Error when none is left.
  PluginFile duplicate() const;

  // Reads exactly n bytes at offset into dst. Throws st::Error naming the
  // path if [offset, offset + n) is not inside the file's size or the file
  // shrank meanwhile. Never reads more than size() bytes in total. The
  // first call reads the file's first kHeadBytes at once and later reads
  // inside them are copies: a small plugin's ELF tables are one read.
  void read_at(uint64_t offset, uint64_t n, void* dst) const;

  // The n bytes at offset without a copy when they lie in the file's first
  // kHeadBytes (read once, as by read_at), else null. Throws as read_at
  // does if [offset, offset + n) is not inside the file. Valid while the
  // PluginFile lives and is not moved from.
  const uint8_t* view(uint64_t offset, uint64_t n) const;

  static constexpr uint64_t kHeadBytes = 16 * 1024;

 private:
  PluginFile(std::string path, int fd, uint64_t size, dev_t dev, ino_t ino)
      : path_(std::move(path)), fd_(fd), size_(size), dev_(dev), ino_(ino) {}
  void pread_exactly(uint64_t offset, uint64_t n, void* dst) const;
  void check_range(uint64_t offset, uint64_t n) const;
  void read_head() const;

  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  // The file's first head_size_ bytes, once read (not zero-filled first).
  mutable std::unique_ptr<uint8_t[]> head_;
  mutable uint64_t head_size_ = 0;
};

// "a directory", "a FIFO (named pipe)", ... for an st_mode that is not a
// regular file.
std::string file_kind(mode_t mode);

}  // namespace st::loader
