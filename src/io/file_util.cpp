#include "io/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <string_view>

namespace hlograph::io {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

// Closes a descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path) {
  int raw;
  do {
    raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) return Status::Error("cannot open '" + path + "': " + ErrnoText(errno));
  Fd fd(raw);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return Status::Error("cannot read '" + path + "': " + ErrnoText(errno));
  if (S_ISDIR(st.st_mode)) return Status::Error("cannot read '" + path + "': it is a directory");
  // The size from stat is only a hint (pipes report 0, files may change):
  // one byte more lets the end be seen without growing the buffer.
  std::vector<uint8_t> bytes;
  if (S_ISREG(st.st_mode) && st.st_size > 0) bytes.resize(static_cast<size_t>(st.st_size) + 1);
  size_t used = 0;
  while (true) {
    if (used == bytes.size()) bytes.resize(std::max<size_t>(65536, bytes.size() * 2));
    const ssize_t n = ::read(fd.get(), bytes.data() + used, bytes.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Error("cannot read '" + path + "': " + ErrnoText(errno));
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  bytes.resize(used);
  return bytes;
}

Status WriteFileAtomically(const std::string& path, const std::function<Status(const ByteSink&)>& write) {
  if (path.empty() || path.back() == '/') return Status::Error("cannot write '" + path + "': not a file name");
  // A fresh name next to the target; O_EXCL makes it ours, and the mode
  // 0666 lets the umask decide the permissions as for any new file.
  std::random_device rd;
  std::string tmp;
  int raw = -1;
  for (int attempt = 0; attempt < 100 && raw < 0; ++attempt) {
    tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd() % 1000000000u);
    raw = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (raw < 0 && errno != EEXIST && errno != EINTR) {
      return Status::Error("cannot write '" + path + "': " + ErrnoText(errno));
    }
  }
  if (raw < 0) return Status::Error("cannot write '" + path + "': no free temporary file name");
  Fd fd(raw);
  auto fail = [&](Status s) {
    ::close(fd.release());
    ::unlink(tmp.c_str());
    return s;
  };

  ByteSink sink = [&](const void* data, size_t size) -> Status {
    const auto* p = static_cast<const uint8_t*>(data);
    while (size > 0) {
      const size_t chunk = std::min<size_t>(size, size_t{1} << 30);
      const ssize_t n = ::write(fd.get(), p, chunk);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::Error("cannot write '" + path + "': " + ErrnoText(errno));
      }
      p += n;
      size -= static_cast<size_t>(n);
    }
    return Status::Ok();
  };
  Status s = write(sink);
  if (!s.ok()) return fail(s);
  if (::fsync(fd.get()) != 0) return fail(Status::Error("cannot write '" + path + "': " + ErrnoText(errno)));
  if (::close(fd.release()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Status::Error("cannot write '" + path + "': " + ErrnoText(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Status::Error("cannot write '" + path + "': " + ErrnoText(err));
  }
  // Make the rename itself durable; a failure here does not undo the write.
  int dir = ::open(DirectoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return Status::Ok();
}

}  // namespace hlograph::io
