#!/usr/bin/env bash
# `robot run --backend topic` against a simulator that is not ours, in one command:
#   scripts/topic-sim.sh [robot run options]        e.g. --seconds 10, --robot six_axis_arm
# The simulator is ros2/peer/peer.py (Eclipse Cyclone DDS, PyPI `cyclonedds` in
# .venv/): it takes the joints of the robot's emitted topic URDF, follows the commands on
# /robot_joint_commands and publishes /robot_joint_states at 1 kHz (and /imu/data). Both run in
# a network namespace made here (root: `unshare --net`; otherwise a user namespace mapping you
# to root in it), with only its own loopback: DDS discovery and traffic stay on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${ROBOT_TOOLS_VENV:-$PWD/.venv}/bin/python
robot=$PWD/target/debug/robot

die() { echo "topic-sim: $*" >&2; exit 1; }

if [[ ${TOPIC_SIM_INSIDE:-} != 1 ]]; then
  "$python" -c 'import cyclonedds.domain' 2>/dev/null || scripts/install-tools.sh
  # Built here: the namespace has no network for crates.io.
  cargo build -q -p robots
  user_namespace=()
  ((EUID == 0)) || user_namespace=(--map-root-user)
  exec unshare --net "${user_namespace[@]}" env TOPIC_SIM_INSIDE=1 "$0" "$@" ||
    die "cannot make a network namespace (unshare --net): no namespaces in this kernel or container"
fi

ip link set lo up
ip link set lo multicast on
# DDS discovery is multicast; with only `lo` in the namespace it must go there.
ip route add 224.0.0.0/4 dev lo

name=lite_biped
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --robot) name=${args[i + 1]:-$name} ;;
    --robot=*) name=${args[i]#--robot=} ;;
  esac
done
descriptions=$(mktemp -d)
peer_log=$(mktemp)
peer_pid=
cleanup() {
  [[ -n $peer_pid ]] && kill -TERM "$peer_pid" 2>/dev/null && wait "$peer_pid" 2>/dev/null
  rm -rf "$descriptions" "$peer_log"
}
trap cleanup EXIT
"$robot" emit --robot "$name" --out "$descriptions" >/dev/null

"$python" -u ros2/peer/peer.py sim --urdf "$descriptions/$name/$name.topic.urdf" \
  --imu /imu/data >"$peer_log" 2>&1 &
peer_pid=$!
for _ in $(seq 100); do
  grep -q '"ready"' "$peer_log" && break
  kill -0 "$peer_pid" 2>/dev/null || die "the simulator ended before it was ready: $(cat "$peer_log")"
  sleep 0.1
done
grep -q '"ready"' "$peer_log" || die "the simulator was not ready within 10 s: $(cat "$peer_log")"
echo "topic-sim: Cyclone DDS simulator of $name's joints running (peer.py sim, 1 kHz)"
"$robot" run --backend topic "$@"
