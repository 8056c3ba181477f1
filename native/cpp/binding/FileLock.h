// An exclusive advisory lock on a file (flock), for one writer per output: the kernel drops it when the
// holder's process ends however it ends, so a process killed with SIGKILL (a Slurm preemption before its
// requeue) leaves no lock behind, as a pid file would. Node has no file locks of its own, and the libraries
// that add them either build a native addon at install time (fs-ext) or go by an mtime that a long step
// would let go stale (proper-lockfile).
#pragma once

#include <napi.h>

namespace hookmd::binding {

/** lockFile(path): the descriptor holding the lock on `path` (created if missing), or -1 when another holds it. */
Napi::Value lockFile(const Napi::CallbackInfo& info);
/** unlockFile(path, fd): removes `path` and closes `fd`, which releases the lock. */
Napi::Value unlockFile(const Napi::CallbackInfo& info);

}  // namespace hookmd::binding
