#!/usr/bin/env bash
# Installs the real tools the test suite checks emitted files against, from the package registries:
#   check_urdf          Debian's liburdfdom-tools
#   xacro               PyPI xacro (runs without ROS)
#   mujoco              PyPI mujoco (the compiler of MJCF models)
#   check-jsonschema    PyPI check-jsonschema (schema meta-validation)
# Idempotent: a tool already at the pinned version is left alone.
set -euo pipefail

need_apt=()
command -v check_urdf >/dev/null 2>&1 || need_apt+=(liburdfdom-tools)
if ((${#need_apt[@]})); then
  echo "install-tools: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

pip_pins=(xacro==2.1.1 mujoco==3.17.0 check-jsonschema==0.39.0)
missing=()
for pin in "${pip_pins[@]}"; do
  name=${pin%%==*}
  want=${pin##*==}
  have=$(python3 -m pip show "$name" 2>/dev/null | sed -n "s/^Version: //p" || true)
  [[ $have == "$want" ]] || missing+=("$pin")
done
if ((${#missing[@]})); then
  echo "install-tools: pip install ${missing[*]}"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "${missing[@]}"
fi

# pyenv puts new console scripts on PATH only after a rehash.
if command -v pyenv >/dev/null 2>&1; then
  pyenv rehash || true
fi

# Fail here, loudly, rather than in a test: every tool must now be on PATH.
for tool in check_urdf xacro check-jsonschema; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install-tools: $tool is not on PATH after installing" >&2; exit 1; }
done
python3 -c "import mujoco; assert mujoco.__version__ == '3.17.0', mujoco.__version__" \
  || { echo "install-tools: python3 cannot import mujoco 3.17.0" >&2; exit 1; }
