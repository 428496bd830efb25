#!/usr/bin/env bash
# Builds the libFuzzer harnesses (see Fuzz/README.md): RKModel, RKTable, ZIPFoundation and RKImport become
# static libraries instrumented with -sanitize=fuzzer,address, then each Fuzz/Harnesses/*.swift
# is compiled on top (with @testable import, so it can reach internal readers) and linked.
#
# Usage: Fuzz/build.sh [harness...]   (default: every harness). Output: .build-fuzz/fuzz/<name>
# Libraries are rebuilt only when one of their sources is newer than the library.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/.build-fuzz/fuzz"
mkdir -p "$out"
cd "$repo"

# ZIPFoundation comes from the package's own pinned checkout (fetched into .build-fuzz once);
# its CZLib module map is on the include path of every step, since RKImport's module needs it.
zip_sources="$repo/.build-fuzz/checkouts/ZIPFoundation/Sources/ZIPFoundation"
flags=(-O -g -sanitize=fuzzer,address -parse-as-library -I "$out" -I "$zip_sources/../CZLib"
  -I "$repo/Sources/CZipChecksum")
if [ ! -d "$zip_sources" ]; then
  swift package resolve --scratch-path "$repo/.build-fuzz" >&2
fi

# newer_than LIB FILE...: true when LIB is missing or older than any FILE.
newer_than() {
  local lib="$1"
  shift
  [ ! -f "$lib" ] && return 0
  for file in "$@"; do [ "$file" -nt "$lib" ] && return 0; done
  return 1
}

# library NAME SWIFT_VERSION EXTRA_FLAGS... -- SOURCES...
library() {
  local name="$1" version="$2"
  shift 2
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  if newer_than "$out/lib$name.a" "$@"; then
    echo "fuzz build: lib$name.a" >&2
    swiftc "${flags[@]}" -swift-version "$version" "${extra[@]}" -module-name "$name" \
      -emit-library -static -emit-module -emit-module-path "$out/$name.swiftmodule" \
      -o "$out/lib$name.a" "$@"
  fi
}

library ZIPFoundation 5 -suppress-warnings -Xcc -D_GNU_SOURCE=1 -- "$zip_sources"/*.swift
library RKModel 6 -enable-testing -- Sources/RKModel/*.swift
library RKTable 6 -enable-testing -- Sources/RKTable/*.swift
mapfile -t import_sources < <(find Sources/RKImport -name '*.swift' | sort)
library RKImport 6 -enable-testing -- "${import_sources[@]}"

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for file in Fuzz/Harnesses/*.swift; do
    name="$(basename "$file" .swift)"
    [ "$name" = "FuzzSupport" ] || harnesses+=("$name")
  done
fi
for name in "${harnesses[@]}"; do
  source="Fuzz/Harnesses/$name.swift"
  [ -f "$source" ] || { echo "fuzz build: no harness $source" >&2; exit 2; }
  if newer_than "$out/$name" "$source" Fuzz/Harnesses/FuzzSupport.swift "$out/libRKImport.a"; then
    echo "fuzz build: $name" >&2
    swiftc "${flags[@]}" -swift-version 6 -module-name "Fuzz_$name" \
      "$source" Fuzz/Harnesses/FuzzSupport.swift \
      -L "$out" -lRKImport -lRKTable -lRKModel -lZIPFoundation \
      -lFoundation -lFoundationEssentials -lz -use-ld=lld \
      -o "$out/$name"
  fi
done
