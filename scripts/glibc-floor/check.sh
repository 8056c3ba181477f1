#!/usr/bin/env bash
# Usage: check.sh FILE.node [MAX]. Fails when the binary needs a glibc symbol version newer than MAX (default
# 2.28, Node 20's own floor) or any libstdc++ version (the prebuild carries its libstdc++, so the system's
# age does not matter). Reads the dynamic symbol table with `objdump -T`, which is what the loader checks.
set -euo pipefail
file=$1
max=${2:-2.28}
symbols=$(objdump -T "$file")
needed=$(grep -o 'GLIBC_[0-9][0-9.]*' <<<"$symbols" | sort -uV)
newest=$(tail -n 1 <<<"$needed")
echo "glibc-floor: $file needs ${newest:-no versioned glibc symbol} (versions: $(tr '\n' ' ' <<<"$needed"))"
too_new=$(grep -E "\((GLIBC_[0-9.]+)\)" <<<"$symbols" | awk -v max="$max" '{
  match($0, /GLIBC_[0-9.]+/); v = substr($0, RSTART + 6, RLENGTH - 6)
  split(v, a, "."); split(max, b, ".")
  if (a[1] + 0 > b[1] + 0 || (a[1] + 0 == b[1] + 0 && a[2] + 0 > b[2] + 0)) print
}')
if [ -n "$too_new" ]; then
  echo "glibc-floor: $file needs glibc newer than $max:" >&2
  echo "$too_new" >&2
  exit 1
fi
libstdcxx=$(grep -E '\((GLIBCXX|CXXABI)_[0-9.]+\)' <<<"$symbols" || true)
if [ -n "$libstdcxx" ]; then
  echo "glibc-floor: $file needs the system's libstdc++ (it must be linked statically):" >&2
  echo "$libstdcxx" >&2
  exit 1
fi
echo "glibc-floor: $file loads on glibc $max and newer"
