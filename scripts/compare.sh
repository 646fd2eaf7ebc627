#!/usr/bin/env bash
# scripts/compare.sh — are two builds' outputs byte-identical?
#
#   scripts/compare.sh BASE_REV [HEAD_REV]
#
# Builds compaudit at BASE_REV and at HEAD_REV (default: the work tree) and
# records, with scripts/snapshot, every command and output format on every
# transcript in testdata/ and ../shared/corpus. Prints the number of outputs
# and "identical", or the differing files and a diff of the first, and exits
# 1 when anything differs. Refactors that change no finding must print
# "identical".
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/compare.sh BASE_REV [HEAD_REV]}
head=${2:-}
work=$(mktemp -d -t compaudit-compare.XXXXXX)
trap 'git worktree remove --force "$work/base-tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# build REV OUT — the binary at REV ("" for the work tree), version fixed so
# that it does not differ between the two.
build() {
  local rev=$1 out=$2 src=.
  if [ -n "$rev" ]; then
    src="$work/tree-$(basename "$out")"
    git worktree add --detach --force "$src" "$rev" >/dev/null 2>&1
  fi
  (cd "$src" && CGO_ENABLED=0 go build -buildvcs=false \
    -ldflags "-X github.com/compaudit/compaudit/cmd.version=snapshot" -o "$out" .)
  [ -z "$rev" ] || git worktree remove --force "$src" >/dev/null
}

build "$base" "$work/base"
build "$head" "$work/head"
corpus=$(cd .. && pwd)/shared/corpus
go run ./scripts/snapshot -bin "$work/base" -out "$work/out-base" -corpus "$corpus" >/dev/null
go run ./scripts/snapshot -bin "$work/head" -out "$work/out-head" -corpus "$corpus"

if diff -rq "$work/out-base" "$work/out-head" >"$work/diff"; then
  echo "compare: identical ($base against ${head:-the work tree})"
  exit 0
fi
echo "compare: $(wc -l <"$work/diff") outputs differ ($base against ${head:-the work tree}):"
head -20 "$work/diff"
first=$(awk '/^Files/ { print $2; exit }' "$work/diff")
[ -z "$first" ] || diff -u "$first" "${first/out-base/out-head}" | head -40
exit 1
