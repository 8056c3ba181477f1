// Native errors carry a stable string code; the binding turns them into JS HookmdError objects.
// native/cpp never includes Node headers, so this is a plain C++ exception.
#pragma once

#include <stdexcept>
#include <string>

namespace hookmd {

class NativeError : public std::runtime_error {
 public:
  NativeError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const noexcept { return code_; }

 private:
  std::string code_;
};

[[noreturn]] inline void fail(const char* code, const std::string& message) {
  throw NativeError(code, message);
}

}  // namespace hookmd
