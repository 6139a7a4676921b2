#!/usr/bin/env bash
# What `robot!` adds to `cargo check`.
#
# Usage:
#   scripts/measure-macro-cost.sh [RUNS]        # RUNS timed checks per case, default 5
#
# Environment:
#   JOINTS=200            joints of the generated definition
#   KEEP=1                keep the temp dir (its path is printed) instead of deleting it
#   CARGO_TARGET_DIR=..   where the throwaway crate builds; default a target/ inside the temp dir,
#                         so the first run also builds robot-core's dependencies once (~1-2 min)
#
# It writes a throwaway crate into `mktemp -d` (never into the repo), depending on
# this checkout's robot-core and robot-macros by path, with the versions of the workspace's
# Cargo.lock, and checks it with three `src/lib.rs`:
#   baseline    the same crate with no `robot!` invocation (an empty lib);
#   generated   one `robot!` with JOINTS revolute, actuated, MIT-commanded joints in a chain, on
#               ceil(JOINTS / 8) buses of at most 8 actuators at 100 Hz (the bus-load rule passes:
#               8 × 2 × 160 bit × 100 Hz = 256 kbit/s of 1 Mbit/s), CAN ids 1..=8 on each bus,
#               RS02 limits inside the model (44 rad/s, 17 N·m);
#   lite_biped  a copy of robots/src/lite_biped.rs.
# For each: one untimed check (warms the incremental cache), then RUNS × (`touch src/lib.rs`;
# `cargo check`), timed with `date +%s%N`, once with incremental compilation (cargo's default for
# `check`) and once with CARGO_INCREMENTAL=0. Stable cargo only: no `-Z` flags. The table gives
# min and median in seconds; a case's cost of `robot!` is its time minus the baseline's.
set -euo pipefail

runs=${1:-5}
joints=${JOINTS:-200}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

dir=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then
  echo "measure-macro-cost: crate in $dir (kept)"
else
  trap 'rm -rf "$dir"' EXIT
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$dir/target}

mkdir -p "$dir/crate/src" "$dir/cases"
cat >"$dir/crate/Cargo.toml" <<EOF
[package]
name = "macro-cost"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
robot-core = { path = "$repo/robot-core" }
robot-macros = { path = "$repo/robot-macros" }

[workspace]
EOF
cp "$repo/Cargo.lock" "$dir/crate/Cargo.lock"
cp "$repo/rust-toolchain.toml" "$dir/crate/"

# The cases.
echo '//! Baseline: the same crate without a `robot!` invocation.' >"$dir/cases/baseline.rs"
cp "$repo/robots/src/lite_biped.rs" "$dir/cases/lite_biped.rs"
{
  echo "//! A generated $joints-joint chain."
  echo 'use robot_macros::robot;'
  echo 'robot! {'
  echo '    robot Chain { update_rate: 100 Hz }'
  for ((b = 0; b < (joints + 7) / 8; b++)); do
    echo "    bus bus_$b { bitrate: 1_000_000 }"
  done
  echo '    link link_0 { inertial { mass: 1.0, inertia: [0.01, 0, 0, 0.01, 0, 0.01] } }'
  for ((i = 1; i <= joints; i++)); do
    cat <<EOF
    link link_$i {
        inertial { mass: 0.5, com: [0, 0, 0.05], inertia: [0.001, 0, 0, 0.001, 0, 0.0005] }
        collision capsule { radius: 0.02, length: 0.1, origin { xyz: [0, 0, 0.05] } }
    }
    joint joint_$i: revolute {
        parent: link_$((i - 1)),
        child: link_$i,
        origin { xyz: [0, 0, 0.1] },
        axis: [0, $((i % 2)), $(((i + 1) % 2))],
        limits { lower: -90 deg, upper: 90 deg, velocity: 40, effort: 15, current: 20 },
        dynamics { friction: 0.1, armature: 0.005 },
        actuator { bus: bus_$(((i - 1) / 8)), can_id: $(((i - 1) % 8 + 1)), model: RS02 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
EOF
  done
  echo '}'
} >"$dir/cases/generated.rs"

cd "$dir/crate"
cp "$dir/cases/baseline.rs" src/lib.rs
echo "measure-macro-cost: building dependencies into $CARGO_TARGET_DIR"
cargo check -q # trims the copied lock file to this crate's graph, keeping its versions

# Prints the min and median, in seconds, of RUNS timed checks after `touch src/lib.rs`.
measure() {
  local times=() start end
  cargo check -q --locked # warm-up: the new lib.rs's first check is not timed
  for ((r = 0; r < runs; r++)); do
    touch src/lib.rs
    start=$(date +%s%N)
    cargo check -q --locked
    end=$(date +%s%N)
    times+=($((end - start)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '
    { t[NR] = $1 / 1e9 }
    END { printf "%6.2f %6.2f", t[1], (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2) }'
}

declare -A result
for case in baseline generated lite_biped; do
  cp "$dir/cases/$case.rs" src/lib.rs
  result[$case]="$(measure) $(CARGO_INCREMENTAL=0 measure)"
done

echo
echo "cargo check after touch src/lib.rs, $runs runs each, seconds ($(nproc) cores)"
printf '%-22s %20s %20s %22s\n' "" "incremental" "CARGO_INCREMENTAL=0" "robot! adds (median)"
printf '%-22s %9s %10s %9s %10s %11s %10s\n' case min median min median incr. non-incr.
read -r b_min b_med b0_min b0_med <<<"${result[baseline]}"
for case in baseline generated lite_biped; do
  read -r min med min0 med0 <<<"${result[$case]}"
  label=$case
  [[ $case == generated ]] && label="generated ($joints joints)"
  [[ $case == lite_biped ]] && label="lite_biped (14 joints)"
  printf '%-22s %9s %10s %9s %10s %11s %10s\n' "$label" "$min" "$med" "$min0" "$med0" \
    "$(awk -v a="$med" -v b="$b_med" 'BEGIN { printf "%.2f", a - b }')" \
    "$(awk -v a="$med0" -v b="$b0_med" 'BEGIN { printf "%.2f", a - b }')"
done
