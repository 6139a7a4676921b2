#!/usr/bin/env bash
# The trajectory controller driven as a ROS user's tools would drive it, in one command:
#   scripts/trajectory-demo.sh [robot run options]     e.g. --backend mujoco --model stand
# Runs `robot run --controller trajectory --ros` (lite_biped, the mock by default) and the
# project's Cyclone DDS peer (ros2/peer/peer.py, PyPI `cyclonedds` in .venv/), which
# publishes a squat of both legs as trajectory_msgs/JointTrajectory on
# /left_leg_trajectory_controller/joint_trajectory and /right_leg_trajectory_controller/... and
# prints where /joint_states says the knees were at each point's time. Both run in a network
# namespace made here (root: `unshare --net`; otherwise a user namespace), with only its own
# loopback: DDS stays on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${ROBOT_TOOLS_VENV:-$PWD/.venv}/bin/python
robot=$PWD/target/debug/robot

die() { echo "trajectory-demo: $*" >&2; exit 1; }

if [[ ${TRAJECTORY_DEMO_INSIDE:-} != 1 ]]; then
  "$python" -c 'import cyclonedds.domain' 2>/dev/null || scripts/install-tools.sh
  cargo build -q -p robots # here: the namespace has no network for crates.io
  user_namespace=()
  ((EUID == 0)) || user_namespace=(--map-root-user)
  exec unshare --net "${user_namespace[@]}" env TRAJECTORY_DEMO_INSIDE=1 "$0" "$@" ||
    die "cannot make a network namespace (unshare --net): no namespaces in this kernel or container"
fi

ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo # DDS discovery is multicast: with only `lo`, it goes there

# Both legs down to 0.8 rad of knee in 1.5 s (cubic: zero velocities at the points), back up to
# 0.2 rad at 3 s; the hips and ankle pitches keep the feet level (-knee/2 each).
goals=$("$python" - <<'PY'
import json
def joints(side):
    return [f"{side}_{j}" for j in
            ("hip_pitch", "hip_roll", "hip_yaw", "knee_pitch", "ankle_yaw", "ankle_pitch",
             "ankle_roll")]
def pose(side, knee):
    return [(-knee / 2 if j.endswith(("hip_pitch", "ankle_pitch")) else
             knee if j.endswith("knee_pitch") else 0.0) for j in joints(side)]
goals = []
for side in ("left", "right"):
    goals.append({
        "topic": f"/{side}_leg_trajectory_controller/joint_trajectory", "after": 2.0,
        "joint_names": joints(side),
        "points": [{"time_from_start": t, "positions": pose(side, k), "velocities": [0.0] * 7}
                   for t, k in ((1.5, 0.8), (3.0, 0.2))],
    })
print(json.dumps(goals))
PY
)
peer_log=$(mktemp)
trap 'rm -f "$peer_log"' EXIT
"$python" -u ros2/peer/peer.py trajectory --seconds 8 <<<"$goals" >"$peer_log" 2>&1 &
peer_pid=$!
"$robot" run --controller trajectory --ros --seconds 7 "$@"
wait "$peer_pid" || true
"$python" - "$peer_log" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
published = [e["stamp"] for e in events if e["event"] == "published"]
states = [e for e in events if e["event"] == "joint_states"]
if not published or not states:
    sys.exit("trajectory-demo: the peer saw no goal published or no /joint_states")
def knee(at_ns):
    s = min(states, key=lambda s: abs(s["stamp"] - at_ns))
    return s["position"][s["name"].index("left_knee_pitch")]
print("trajectory-demo: left knee per /joint_states at each point's time:")
for t, want in ((0.0, 0.0), (1.5, 0.8), (3.0, 0.2)):
    print(f"  {t:3.1f} s  {knee(published[0] + int(t * 1e9)):+.3f} rad  (goal {want:+.3f})")
PY
