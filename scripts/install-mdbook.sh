#!/usr/bin/env bash
# Installs mdbook, 0.5.4 exactly, from crates.io into the project's own folder, for the book in
# docs/book/ (scripts/test builds it):
#
#   .tools/mdbook/bin/mdbook     `cargo install --locked` (mdbook's own Cargo.lock)
#
# The build is kept short, since CI makes it on every run from a fresh clone: without the default
# features `serve` and `watch` (a web server and a file watcher: tokio, axum, notify; `search`
# stays, so the built book has its search box), and unoptimised (`--debug`, no debug info): 32 s
# on the project's 2 cores, its crates downloaded included, 95 to 100 s while other builds loaded
# them (load average 6 to 8), where a release build took 2.4 times as long (240 s). Unoptimised,
# it builds the book in half a second. There is no `mdbook serve`: read the built book at
# target/book/index.html (scripts/test builds it there).
#
# Idempotent: a second run finds the pinned version and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.5.4
root=$PWD/.tools/mdbook
mdbook=$root/bin/mdbook

say() { echo "install-mdbook: $*"; }
die() { echo "install-mdbook: $*" >&2; exit 1; }

installed() {
  [[ -x $mdbook ]] && [[ $("$mdbook" --version 2>/dev/null) == "mdbook v$version" ]]
}
if installed; then
  exit 0
fi

command -v cargo >/dev/null 2>&1 || die "no cargo on PATH"
# A folder of its own, removed after: the build leaves nothing in the workspace's target/.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "cargo install mdbook $version (about a minute, once)"
CARGO_PROFILE_DEV_DEBUG=false CARGO_INCREMENTAL=0 \
  cargo install --quiet --locked --debug --root "$root" --target-dir "$tmp" \
  --no-default-features --features search mdbook --version "=$version" ||
  die "cargo install mdbook $version failed"
installed || die "$mdbook is not mdbook v$version after installing"
say "installed $mdbook"
