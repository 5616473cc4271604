#include "rdmascope/packets_io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rdmascope::packets_io {
namespace {

std::string failure(const char* what, const std::string& path, int error) {
  return std::string(what) + ' ' + path + ": " + std::strerror(error);
}

// The file a write to `path` lands in: a symbolic link (or a chain of them) resolved; a
// dangling link is left as it is.
std::string resolveLinks(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return path;
  std::string resolved(real);
  std::free(real);
  return resolved;
}

}  // namespace

bool isSameFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::unique_ptr<OutputFile> OutputFile::create(const std::string& path, std::string& error) {
  error.clear();
  const std::string target = resolveLinks(path);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    error = failure("cannot create", path, EISDIR);
    return nullptr;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    std::FILE* f = std::fopen(target.c_str(), "wb");
    if (!f) {
      error = failure("cannot create", path, errno);
      return nullptr;
    }
    return std::unique_ptr<OutputFile>(new OutputFile(path, target, {}, f));
  }
  // The temporary file sits beside the destination so that rename() replaces it atomically.
  static std::atomic<unsigned> serial{0};
  const auto slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
  const std::string name = target.substr(dir.size()).substr(0, 160);
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = dir + '.' + name + '.' + std::to_string(::getpid()) + '-' +
           std::to_string(serial.fetch_add(1)) + ".partial";
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    error = failure("cannot create", path, errno);
    return nullptr;
  }
  if (exists) ::fchmod(fd, st.st_mode & 07777);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    error = failure("cannot create", path, errno);
    ::close(fd);
    ::unlink(temp.c_str());
    return nullptr;
  }
  return std::unique_ptr<OutputFile>(new OutputFile(path, target, temp, f));
}

std::unique_ptr<OutputFile> OutputFile::createGrowing(const std::string& path, std::string& error) {
  error.clear();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return create(path, error);
    error = "cannot create " + path + ": it exists (choose a new file; it is written as it grows)";
    return nullptr;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  std::FILE* f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f) {
    error = failure("cannot create", path, errno);
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<OutputFile>(new OutputFile(path, path, {}, f));
}

OutputFile::~OutputFile() {
  discard();
}

bool OutputFile::commit() {
  if (!stream_) return error_.empty();
  std::FILE* f = stream_;
  stream_ = nullptr;
  if (std::fflush(f) != 0 && error_.empty()) error_ = failure("cannot write", path_, errno);
  if (!temp_.empty() && error_.empty() && ::fsync(::fileno(f)) != 0)
    error_ = failure("cannot write", path_, errno);
  if (std::fclose(f) != 0 && error_.empty()) error_ = failure("cannot write", path_, errno);
  if (temp_.empty()) return error_.empty();
  if (error_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0)
    error_ = failure("cannot replace", path_, errno);
  if (!error_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  return error_.empty();
}

void OutputFile::discard() {
  if (!stream_) return;
  std::fclose(stream_);
  stream_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

}  // namespace rdmascope::packets_io
