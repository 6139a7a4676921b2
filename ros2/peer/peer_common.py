"""What the two DDS peers of the tests share, neither DDS stack imported here: the command line
(one contract for `peer.py`, Eclipse Cyclone DDS, and `rclpy_peer.py`, ROS 2's rclpy over Fast
DDS), the JSON lines they print, the stop on SIGTERM, the simulator's joint list."""

import argparse
import json
import math
import signal
import sys
import time


def say(**fields):
    """One JSON object on one line of stdout: what the Rust side (crate `ros2-peer`) reads."""
    print(json.dumps(fields), flush=True)


def now_ns():
    """Wall-clock time, as the stamps of our runtime's messages are taken."""
    return time.time_ns()


def as_json(values):
    """Floats for JSON, which has no NaN or infinity: those as text."""
    return [v if math.isfinite(v) else str(v) for v in values]


def wrap(angle):
    """Isaac Sim's wrapping: into (-2π, 2π), the sign kept."""
    return math.fmod(angle, 2 * math.pi)


def joints_of(urdf):
    """The joints a description's `<ros2_control>` blocks command, in their order: what a
    simulator driven through JointStateTopicSystem reports (mimic joints have no command
    interface there, and are left out)."""
    import xml.etree.ElementTree as ElementTree

    names = []
    for block in ElementTree.parse(urdf).getroot().iter("ros2_control"):
        for joint in block.iter("joint"):
            if joint.find("command_interface") is not None and joint.get("name") not in names:
                names.append(joint.get("name"))
    if not names:
        sys.exit(f"{sys.argv[0]}: {urdf} has no <ros2_control> joint with a command interface")
    return names


def sim_joints(args):
    return joints_of(args.urdf) if args.urdf else args.joints.split(",")


class Stopper:
    """Turns SIGTERM and SIGINT into a flag the modes' loops check, so each still prints its
    summary."""

    def __init__(self):
        self.stopped = False
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)

    def stop(self, *_):
        self.stopped = True


def parse_args(doc, modes):
    """The command line both peers take; `modes` are the ones this peer has."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("mode", choices=modes)
    parser.add_argument("--domain", type=int, default=0)
    parser.add_argument("--commands", default="/robot_joint_commands")
    parser.add_argument("--states", default="/robot_joint_states")
    parser.add_argument("--imu", default="")
    parser.add_argument("--joints", default="")
    parser.add_argument("--urdf", default="", help="sim: the joints of this URDF's ros2_control")
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=0.0)
    parser.add_argument("--stop-after", type=float, default=0.0)
    parser.add_argument("--tau", type=float, default=0.01)
    parser.add_argument("--initial", type=float, default=0.0)
    parser.add_argument("--wrap", action="store_true")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.01)
    parser.add_argument("--settle", type=float, default=0.0)
    parser.add_argument("--max", type=int, default=5, help="graph: messages printed per topic")
    parser.add_argument("--namespace", default="", help="graph: the topics' namespace")
    parser.add_argument("--node", default="", help="rclpy: the peer's node name")
    parser.add_argument("--action", default="", help="action: the action's name")
    parser.add_argument("--wrench", default="", help="graph: force/torque sensors to read")
    parser.add_argument("--sim-time", action="store_true",
                        help="trajectory: stamp goals on /clock's time, as a use_sim_time node does")
    if "nodes" in modes:
        parser.add_argument("--topics", default="", help="nodes: the topics whose endpoints to list")
    return parser.parse_args()


def graph_namespace(namespace):
    """`robot1/` -> `/robot1`; `` stays ``."""
    ns = namespace.rstrip("/")
    if ns and not ns.startswith("/"):
        ns = "/" + ns
    return ns
