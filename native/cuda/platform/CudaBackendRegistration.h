// Registers the "cuda" backend. Included by binding/Addon.cpp only when HOOKMD_WITH_CUDA is defined, so
// this header stays free of CUDA headers and compiles with the host compiler alone.
#pragma once

namespace hookmd {

/** Registers "cuda": its probe reports why it cannot run (no driver, no device) instead of failing. */
void registerCudaBackend();

}  // namespace hookmd
