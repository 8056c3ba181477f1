// Helpers for the one-list-per-extension-point X-macros (HOOKMD_INTEGRATORS, HOOKMD_NATIVE_HOOKS): a list's
// yes/no column picks the entries a dispatcher expands, and a parenthesized column carries an argument list.
#pragma once

/** `...` where `flag` (a list's column, spelled true or false) is true; nothing where it is false. */
#define HOOKMD_WHEN(flag, ...) HOOKMD_WHEN_##flag(__VA_ARGS__)
#define HOOKMD_WHEN_true(...) __VA_ARGS__
#define HOOKMD_WHEN_false(...)

/** The arguments of a parenthesized column, `HOOKMD_UNPAREN (a, b)` → `a, b`, to append after others. */
#define HOOKMD_UNPAREN(...) __VA_ARGS__
