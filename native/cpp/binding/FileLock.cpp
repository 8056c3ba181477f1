#include "binding/FileLock.h"

#include <cerrno>
#include <cstring>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "binding/Args.h"
#include "binding/Errors.h"

namespace hookmd::binding {

#if defined(__unix__) || defined(__APPLE__)
namespace {
[[noreturn]] void lockFailure(Napi::Env env, const std::string& what, const std::string& path, int error) {
  throwJs(env, "LOCK_FAILED", what + " " + path + ": " + std::strerror(error));
}

/** Whether `fd` is the file `path` names now (not one a holder removed on its way out). */
bool sameFile(int fd, const std::string& path) {
#if defined(__linux__)
  // statx, not stat: the release prebuild must run on glibc 2.28, where stat is not yet a symbol of its own.
  struct statx held {};
  struct statx named {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_INO, &held) != 0) return errno == ENOSYS;  // a kernel before 4.11
  if (::statx(AT_FDCWD, path.c_str(), 0, STATX_INO, &named) != 0) return false;
  return held.stx_ino == named.stx_ino && held.stx_dev_major == named.stx_dev_major && held.stx_dev_minor == named.stx_dev_minor;
#else
  struct stat held {};
  struct stat named {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
#endif
}
}  // namespace

Napi::Value lockFile(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const std::string path = requireString(info, 0, "lockFile: path");
  // A holder removes the file as it lets go: a lock taken on the removed file is no lock, so take it again
  // on the file the path names now.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) lockFailure(env, "cannot open", path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK) return Napi::Number::New(env, -1);
      lockFailure(env, "cannot lock", path, error);
    }
    if (sameFile(fd, path)) return Napi::Number::New(env, fd);
    ::close(fd);
  }
  throwJs(env, "LOCK_FAILED", "cannot lock " + path + ": it was replaced while being locked, again and again");
}

Napi::Value unlockFile(const Napi::CallbackInfo& info) {
  const std::string path = requireString(info, 0, "unlockFile: path");
  const std::int64_t fd = requireCount(info, 1, "unlockFile: fd");
  // Removed while still held, so that no other process locks the file on its way out.
  ::unlink(path.c_str());
  ::close(static_cast<int>(fd));
  return info.Env().Undefined();
}
#else
Napi::Value lockFile(const Napi::CallbackInfo& info) {
  throwJs(info.Env(), "LOCK_FAILED", "lockFile: file locks need flock, which this platform lacks");
}

Napi::Value unlockFile(const Napi::CallbackInfo& info) { return info.Env().Undefined(); }
#endif

}  // namespace hookmd::binding
