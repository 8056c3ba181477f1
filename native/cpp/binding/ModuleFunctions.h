// Module-level functions: threads, backend discovery and the error factory.
#pragma once

#include <napi.h>

namespace hookmd::binding {

void exportModuleFunctions(Napi::Env env, Napi::Object exports);

}  // namespace hookmd::binding
