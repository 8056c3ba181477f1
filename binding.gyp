{
  # CPU backend. Keep the defines and flags in step with CMakeLists.txt (exceptions on, same NAPI_VERSION).
  # NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS: a napi call that fails while a worker is being terminated raises
  # a Napi::Error that cannot be rethrown into the dying environment; without the define node-addon-api
  # then throws from its callback wrapper and std::terminate aborts the whole process.
  # hookmd_glibc_floor=1 (GYP_DEFINES, set by scripts/prebuild.sh) builds the released prebuild: libstdc++
  # linked statically and kept private, and the few glibc symbols newer than 2.28 routed to their 2.2.5
  # versions by scripts/glibc-floor/glibc-2.28.c (docs/install.md, "The glibc floor"). Source builds on a
  # user's machine link against that machine's own libraries and need none of it.
  "variables": { "hookmd_glibc_floor%": 0 },
  "targets": [
    {
      "target_name": "hookmd",
      "sources": ["<!@(node scripts/list-sources.cjs cpp)"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native/cpp"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O3", "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags!": ["-fno-exceptions"],
      "ldflags": ["-pthread"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "11.0"
      },
      "msvs_settings": { "VCCLCompilerTool": { "ExceptionHandling": 1 } },
      "conditions": [
        ["OS=='linux' and hookmd_glibc_floor==1", {
          "sources": ["scripts/glibc-floor/glibc-2.28.c"],
          "ldflags": [
            "-static-libstdc++", "-Wl,--exclude-libs,ALL",
            "-Wl,--wrap=pthread_create", "-Wl,--wrap=pthread_join", "-Wl,--wrap=pthread_detach",
            "-Wl,--wrap=pthread_once", "-Wl,--wrap=pthread_key_create", "-Wl,--wrap=__pthread_key_create",
            "-Wl,--wrap=pthread_key_delete", "-Wl,--wrap=pthread_getspecific", "-Wl,--wrap=pthread_setspecific",
            "-Wl,--wrap=exp", "-Wl,--wrap=log", "-Wl,--wrap=pow", "-Wl,--wrap=arc4random", "-Wl,--wrap=fstat64"
          ]
        }]
      ]
    }
  ]
}
