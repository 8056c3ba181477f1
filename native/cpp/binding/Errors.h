// Native exceptions cross into JS as the HookmdError class that lib/native passes to setErrorFactory at
// load time (better-sqlite3 does the same with SqliteError). Every exported function body runs inside
// `guard`, so no C++ exception ever escapes into Node. While a worker's environment shuts down no error can
// reach JS at all; the build defines NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS so that node-addon-api drops
// it there instead of calling std::terminate (test/native/worker-termination.test.ts).
#pragma once

#include <napi.h>

#include <new>
#include <string>

#include "core/Error.h"

namespace hookmd::binding {

/** Throws a JS error with the given code, built by the registered factory when there is one. */
[[noreturn]] void throwJs(Napi::Env env, const std::string& code, const std::string& message);

template <typename Body>
auto guard(Napi::Env env, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const NativeError& error) {
    throwJs(env, error.code(), error.what());
  } catch (const std::bad_alloc&) {
    throwJs(env, "OUT_OF_MEMORY", "native allocation failed");
  } catch (const std::exception& error) {
    throwJs(env, "NATIVE_FAILURE", error.what());
  }
}

}  // namespace hookmd::binding
