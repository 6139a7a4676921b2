#!/usr/bin/env bash
# Command -> state round trips across two hosts, simulated by two network namespaces joined by a
# veth pair (addresses inside those namespaces only; nothing reaches a real interface):
#   host a: the commanding side, host b: ros2/peer/peer.py echo (Cyclone DDS), which
#   answers each command at once with a state carrying the command's stamp;
#   ours: ros2-dds's publisher and subscription (the topic backend's path), example `roundtrip`;
#   baseline: the same measurement by a Cyclone DDS peer (peer.py ping) in host a.
# At 200 Hz and 1 kHz, SECONDS_PER_RUN (10) each. The echo reads commands with upstream's QoS,
# reliable keep-last ECHO_DEPTH (1): a command it has not taken is replaced by the next, so a
# slow echo loses commands; ECHO_DEPTH=100 shows whether any are lost before it. Prints one JSON line per run and the ratios of ours to
# Cyclone's. Needs root (ip netns) and scripts/install-tools.sh (cyclonedds in .venv/).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_PER_RUN:-10}
echo_depth=${ECHO_DEPTH:-1}
python=${ROBOT_TOOLS_VENV:-$PWD/.venv}/bin/python
peer=ros2/peer/peer.py
a=topic-rt-a-$$
b=topic-rt-b-$$

die() { echo "measure-topic-roundtrip: $*" >&2; exit 1; }
((EUID == 0)) || die "needs root to make network namespaces (ip netns)"
"$python" -c 'import cyclonedds.domain' 2>/dev/null || die "cyclonedds not found; run scripts/install-tools.sh"

cargo build -q --release -p ros2-dds --example roundtrip
roundtrip=$PWD/target/release/examples/roundtrip

cleanup() { ip netns del "$a" 2>/dev/null || true; ip netns del "$b" 2>/dev/null || true; }
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip link add va netns "$a" type veth peer name vb netns "$b"
for side in "$a:va:10.233.0.1" "$b:vb:10.233.0.2"; do
  IFS=: read -r ns dev address <<<"$side"
  ip -n "$ns" link set lo up
  ip -n "$ns" addr add "$address/24" dev "$dev"
  ip -n "$ns" link set "$dev" up multicast on
  ip -n "$ns" route add 224.0.0.0/4 dev "$dev"
done

run() { # rate, side (ours | cyclone)
  local rate=$1 side=$2 echo_log
  echo_log=$(mktemp)
  ip netns exec "$b" "$python" -u "$peer" echo --depth "$echo_depth" --seconds $((seconds + 25)) >"$echo_log" &
  local echo_pid=$!
  sleep 1
  local result
  if [[ $side == ours ]]; then
    result=$(ip netns exec "$a" "$roundtrip" --rate "$rate" --seconds "$seconds")
  else
    result=$(ip netns exec "$a" "$python" -u "$peer" ping --rate "$rate" --seconds "$seconds" |
      "$python" -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin if l.strip()]
s = lines[-1]
rt = sorted(s["round_trips_ns"])
pick = lambda p: round(rt[round((len(rt) - 1) * p)] / 1e3, 1) if rt else None
print(json.dumps({"side": "cyclone", "rate_hz": float(sys.argv[1]), "sent": s["sent"],
                  "answers_arrived": s["answered"], "timed": len(rt),
                  "p50_us": pick(0.5), "p99_us": pick(0.99), "max_us": pick(1.0)}))' "$rate")
  fi
  kill -TERM "$echo_pid" 2>/dev/null || true
  wait "$echo_pid" 2>/dev/null || true
  local received
  received=$("$python" -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if "summary" in l][-1]["commands_received"])' "$echo_log")
  rm -f "$echo_log"
  # The echo also counts discovery's warm-up commands (a few): lost = sent - (received - warm-up)
  # is bounded below by sent - received.
  echo "${result%\}}, \"echo_received\": $received}"
}

results=()
for rate in 200 1000; do
  for side in cyclone ours; do
    line=$(run "$rate" "$side")
    echo "$line"
    results+=("$line")
  done
done
printf '%s\n' "${results[@]}" | "$python" -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin]
for rate in (200.0, 1000.0):
    c = next(r for r in runs if r["side"] == "cyclone" and r["rate_hz"] == rate)
    o = next(r for r in runs if r["side"] == "ros2-dds" and r["rate_hz"] == rate)
    ratios = ", ".join("%s %.2fx" % (k[:-3], o[k] / c[k]) for k in ("p50_us", "p99_us", "max_us"))
    lost = lambda r: max(0, r["sent"] - r["echo_received"])
    print("%d Hz: ros2-dds / cyclone: %s; commands lost: ros2-dds %d (of which %d overwritten before the DDS thread took them), cyclone %d"
          % (rate, ratios, lost(o), o["commands_overwritten"], lost(c)))
'
