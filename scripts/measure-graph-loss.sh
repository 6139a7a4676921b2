#!/usr/bin/env bash
# How many /joint_states a subscriber misses: `robot run --ros` (lite_biped on the mock) at each
# rate for SECONDS, with the project's Cyclone DDS peer (peer.py graph: reliable, keep-last 10,
# as joint_state_broadcaster's subscribers ask) counting what it receives, against what the
# graph says it published. In a network namespace made here, on its loopback only.
#   scripts/measure-graph-loss.sh [SECONDS] [RATE ...]     default: 60 s at 200 and 1000 Hz
# DEPTH=N: the subscriber keeps the last N instead of 10.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${ROBOT_TOOLS_VENV:-$PWD/.venv}/bin/python
robot=$PWD/target/debug/robot

if [[ ${GRAPH_LOSS_INSIDE:-} != 1 ]]; then
  "$python" -c 'import cyclonedds.domain' 2>/dev/null || scripts/install-tools.sh
  cargo build -q -p robots
  user_namespace=()
  ((EUID == 0)) || user_namespace=(--map-root-user)
  exec unshare --net "${user_namespace[@]}" env GRAPH_LOSS_INSIDE=1 "$0" "$@"
fi
ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo

seconds=${1:-60}
shift || true
rates=("${@:-200 1000}")
read -r -a rates <<<"${rates[*]}"
for rate in "${rates[@]}"; do
  log=$(mktemp)
  "$python" -u ros2/peer/peer.py graph --max 0 --depth "${DEPTH:-10}" >"$log" 2>&1 &
  peer=$!
  sleep 1
  out=$("$robot" run --ros --rate "$rate" --ros-rate "$rate" --seconds "$seconds" \
    --out "$(mktemp -d)" 2>&1)
  sleep 1
  kill -TERM "$peer"
  wait "$peer" || true
  published=$(grep -o '[0-9]* states published' <<<"$out" | grep -o '^[0-9]*')
  unmatched=$(grep -o '([0-9]* before a /joint_states subscriber matched)' <<<"$out" | grep -o '[0-9]*')
  received=$("$python" -c 'import json,sys
print([json.loads(l) for l in open(sys.argv[1]) if "summary" in l][-1]["joint_states"])' "$log")
  overruns=$(grep -o '[0-9]* overruns,' <<<"$out" | head -1)
  echo "$rate Hz, $seconds s: $published published ($unmatched before the subscriber matched), $received received, $((published - unmatched - received)) lost after it matched ($overruns loop)"
  rm -f "$log"
done
