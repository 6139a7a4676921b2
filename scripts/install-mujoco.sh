#!/usr/bin/env bash
# Installs MuJoCo's C library, 3.17.0 exactly (what mujoco-rs 7.0.0 wraps and checks at load),
# into the project's own folder, where `.cargo/config.toml` points the build at it:
#
#   .tools/mujoco/lib/libmujoco.so.3.17.0     the library (about 7 MB; needs only libc)
#   .tools/mujoco/lib/libmujoco.so            -> libmujoco.so.3.17.0, the name the linker wants
#
# The library comes from the PyPI wheel `mujoco==3.17.0`, which ships it: copied from the project
# venv when scripts/install-tools.sh has put mujoco there, else downloaded with pip
# (`pip download --no-deps`, one 26 MB wheel) and only that one file unzipped. Debian's
# libmujoco-dev is 2.2.2, too old to link.
#
# Only the MuJoCo backend (crate backend-mujoco, the `mujoco` feature of robot-runner and robots)
# needs it; nothing else in the workspace links it.
#
# Idempotent: a second run finds the library and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

version=3.17.0
lib=$PWD/.tools/mujoco/lib
file=libmujoco.so.$version
venv=${ROBOT_TOOLS_VENV:-$PWD/.venv}

say() { echo "install-mujoco: $*"; }
die() { echo "install-mujoco: $*" >&2; exit 1; }

[[ $(uname -s) == Linux ]] || die "only Linux is scripted; elsewhere install MuJoCo $version and set MUJOCO_DYNAMIC_LINK_DIR"

# The library and its link name, checked: a half-written copy from an interrupted run is redone.
installed() {
  [[ -s $lib/$file && -L $lib/libmujoco.so && $(readlink "$lib/libmujoco.so") == "$file" ]]
}
if installed; then
  exit 0
fi
mkdir -p "$lib"
if [[ -s $lib/$file ]]; then
  ln -sfn "$file" "$lib/libmujoco.so"
  installed && exit 0
fi

# Some Python with pip: the venv's, else the system's; Debian's python3 comes without pip.
python=
for candidate in "$venv/bin/python" python3; do
  if "$candidate" -m pip --version >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done

from_venv=
if [[ -x $venv/bin/python ]]; then
  from_venv=$("$venv/bin/python" - "$version" "$file" <<'PY' 2>/dev/null || true
import sys, pathlib
from importlib import metadata
version, file = sys.argv[1:]
if metadata.version("mujoco") == version:
    for f in metadata.files("mujoco") or []:
        if f.name == file:
            print(pathlib.Path(f.locate()).resolve())
PY
)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -n $from_venv && -s $from_venv ]]; then
  say "copying $file from $venv"
  cp "$from_venv" "$tmp/$file"
else
  if [[ -z $python ]]; then
    command -v apt-get >/dev/null 2>&1 || die "no python3 with pip: install one, then run again"
    sudo=()
    ((EUID == 0)) || sudo=(sudo)
    say "apt-get install python3-pip (to download the mujoco wheel)"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
    python=python3
  fi
  say "pip download mujoco==$version (the wheel ships $file)"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary=:all: "mujoco==$version" -d "$tmp" ||
    die "pip download mujoco==$version failed"
  wheel=$(find "$tmp" -maxdepth 1 -name "mujoco-$version-*.whl" | head -n 1)
  [[ -n $wheel ]] || die "pip download gave no mujoco-$version wheel"
  # A wheel is a zip: take the one member, no unzip tool needed.
  "$python" - "$wheel" "$file" "$tmp/$file" <<'PY' || die "$file is not in $(basename "$wheel")"
import sys, zipfile, shutil
wheel, file, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n == "mujoco/" + file)
    with z.open(member) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
fi

# In place only when whole: copied beside it, then renamed (atomic), the symlink last.
cp "$tmp/$file" "$lib/.$file.partial"
mv "$lib/.$file.partial" "$lib/$file"
ln -sfn "$file" "$lib/libmujoco.so"
installed || die "$lib does not hold $file and its libmujoco.so link after installing"
say "installed $lib/$file"
