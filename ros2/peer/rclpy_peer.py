"""The second independent DDS peer of the tests: ROS 2 Jazzy's own client library, rclpy, over
its default RMW, rmw_fastrtps_cpp (eProsima Fast DDS), from PyPI `ros-jazzy-rclpy[fastrtps]`.
No ROS install and no sourcing: the venv's python imports it. The message types are ROS 2's
own (`sensor_msgs`, `trajectory_msgs`, ... wheels), not declared by hand as peer.py's are.

The command line and the JSON lines are peer.py's (peer_common.py holds both), for these modes:

  sim     a simulator of the joints of --joints (or of --urdf's <ros2_control> blocks): takes
          JointState commands, moves each joint towards its commanded position (first-order,
          time constant --tau), publishes JointState at --rate Hz (and an Imu on --imu);
          --stop-after S stops publishing after S seconds
  echo    for round trips: answers every command at once with a JointState carrying the
          command's stamp and positions
  script  publishes the JointStates of a JSON list (stdin), each --repeat times --interval apart
  listen  prints every command it receives, and at the end the writers of --commands and the
          readers of --states as rclpy's graph API gives them (below)
  trajectory  publishes the JointTrajectory goals of a JSON list (stdin) at their times and
          prints every /joint_states it reads
  graph   subscribes as RViz would to /joint_states, /imu/data, /robot_description and
          /diagnostics (in --namespace; /robot_description transient-local, so a late joiner
          gets it), and each /<sensor>_broadcaster/wrench of --wrench, prints the first --max
          messages of each, and counts the rest. NOT /tf or /tf_static: there is no tf2_msgs
          wheel on PyPI, so rclpy here has no TFMessage type to subscribe with (peer.py reads
          them)
  nodes   (peer.py has no such mode) for --seconds, what `ros2 node list` and
          `ros2 topic info -v` would say: the nodes of the domain but this peer's own, and for
          each topic of --topics (comma-separated) its publishers and subscriptions

  control (peer.py has no such mode) what `ros2 control` asks of /controller_manager's services
          (controller_manager_msgs, built into the venv from ros2/interfaces/), commands a
          forward_command_controller takes (std_msgs/Float64MultiArray), and /joint_states as
          seen between them, from a JSON list of requests (stdin)

  action  (peer.py has no such mode) as MoveIt executes: FollowJointTrajectory goals of a JSON
          list (stdin) on --action, with rclpy's ActionClient, and how each ended

  params  (peer.py has no such mode) what `ros2 param` asks of a node's parameter services,
          from a JSON list of requests (stdin), and what /parameter_events and /clock carried
  sensors a sensor's driver, as peer.py's: a WrenchStamped on --wrench and a Bool on --imu

peer.py's `ping` and `participants` are not here: `ping` is Cyclone's own baseline, and rclpy
sees nodes, never DDS participants.

Where peer.py reads an endpoint's QoS and USER_DATA from Cyclone's builtin topics, this peer
asks rclpy's graph (`get_publishers_info_by_topic`, `get_subscriptions_info_by_topic`), which
gives ROS 2's view of the same endpoint:
  node_name, node_namespace  from ros_discovery_info: `_CREATED_BY_BARE_DDS_APP_` for a
          participant that publishes none, `_NODE_NAME_UNKNOWN_` for an endpoint no node of its
          participant claims
  topic_type  `sensor_msgs/msg/JointState`, not the DDS type name
  topic_type_hash  `RIHS01_<hex>`, the type hash the RMW parsed from the endpoint's USER_DATA
          (not the USER_DATA text); `INVALID` when there is none
  reliability, durability, history, depth  spelt as peer.py spells them (`Reliable`,
          `TransientLocal`, `KeepLast`); Fast DDS's discovery does not carry the history, so
          another process's endpoint has history `Unknown` and depth 0

Every mode first prints {"event": "ready"} once its endpoints exist. The domain is --domain, 0
when not given, as peer.py's.
"""

import json
import math
import os
import sys
import time

# UDP only, no shared memory: Fast DDS's shared-memory transport names its segments in /dev/shm
# after the port (`fastrtps_port7411`), which network namespaces do not separate, so peers of
# tests running side by side would write into each other's ports; and a killed peer leaves its
# segments behind. Our runtime speaks UDP only, so nothing it is tested against is lost.
os.environ["FASTDDS_BUILTIN_TRANSPORTS"] = "UDPv4"

import rclpy
from builtin_interfaces.msg import Duration, Time
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import WrenchStamped
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import Imu, JointState
from std_msgs.msg import Bool, Header, String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from peer_common import Stopper, as_json, graph_namespace, now_ns, parse_args, say, sim_joints, wrap


def reliable(depth):
    """rclcpp::QoS(depth): reliable, keep-last `depth`, volatile."""
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth,
                      reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)


def sensor_data():
    """rclcpp::SensorDataQoS(): best effort, keep-last 5, volatile."""
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=5,
                      reliability=ReliabilityPolicy.BEST_EFFORT,
                      durability=DurabilityPolicy.VOLATILE)


def transient_local(depth):
    """rclcpp::QoS(depth).transient_local(): late joiners get the last `depth` samples."""
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth,
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)


def stamp(ns):
    return Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)


def stamp_ns(t):
    return t.sec * 1_000_000_000 + t.nanosec


class Peer:
    """The peer's one node and the executor that runs its callbacks between the mode's ticks."""

    def __init__(self, args):
        # Our own SIGTERM handling (Stopper): rclpy's would shut the context down mid-loop,
        # before the summary. No log file per run in ~/.ros/log (rcl's spdlog sink): messages
        # still go to stderr.
        rclpy.init(args=["--ros-args", "--disable-external-lib-logs"], domain_id=args.domain,
                   signal_handler_options=SignalHandlerOptions.NO)
        self.node = rclpy.create_node(args.node or f"rclpy_peer_{args.mode}_{os.getpid()}")
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)

    def spin_until(self, deadline):
        """Runs callbacks as they come until `deadline` (time.monotonic()), and one that is
        ready even when the deadline has passed."""
        self.executor.spin_once(timeout_sec=0)
        while (left := deadline - time.monotonic()) > 0:
            self.executor.spin_once(timeout_sec=left)

    def close(self):
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown()


def sim(args, peer, stopper):
    node = peer.node
    names = sim_joints(args)
    position = {n: float(args.initial) for n in names}
    velocity = {n: 0.0 for n in names}
    target = {}
    received = published = 0

    def command(message):
        nonlocal received
        received += 1
        for i, name in enumerate(message.name):
            if i < len(message.position) and math.isfinite(message.position[i]):
                target[name] = message.position[i]

    node.create_subscription(JointState, args.commands, command, reliable(1))
    writer = node.create_publisher(JointState, args.states, sensor_data())
    imu_writer = node.create_publisher(Imu, args.imu, sensor_data()) if args.imu else None
    period = 1.0 / args.rate
    start = time.monotonic()
    next_tick = start
    say(event="ready")
    while not stopper.stopped:
        now = time.monotonic()
        if args.seconds and now - start >= args.seconds:
            break
        for name in names:
            if name in target:
                old = position[name]
                position[name] += (target[name] - old) * min(1.0, period / args.tau)
                velocity[name] = (position[name] - old) / period
        stopped_publishing = args.stop_after and now - start >= args.stop_after
        if not stopped_publishing:
            reported = [wrap(position[n]) if args.wrap else position[n] for n in names]
            writer.publish(JointState(
                header=Header(stamp=stamp(now_ns())),
                name=names,
                position=reported,
                velocity=[velocity[n] for n in names],
                effort=[0.0] * len(names),
            ))
            if imu_writer is not None:
                imu_writer.publish(Imu(header=Header(stamp=stamp(now_ns()), frame_id="imu")))
            published += 1
        next_tick += period
        if next_tick <= time.monotonic():
            next_tick = time.monotonic()
        # The commands that arrive until the next tick, as peer.py takes them at its start.
        peer.spin_until(next_tick)
    say(event="summary", commands_received=received, states_published=published,
        positions={n: position[n] for n in names})


def echo(args, peer, stopper):
    node = peer.node
    writer = node.create_publisher(JointState, args.states, sensor_data())
    received = 0

    def command(message):
        nonlocal received
        received += 1
        writer.publish(JointState(header=message.header, name=message.name,
                                  position=message.position))

    node.create_subscription(JointState, args.commands, command, reliable(args.depth))
    start = time.monotonic()
    say(event="ready")
    while not stopper.stopped and not (args.seconds and time.monotonic() - start >= args.seconds):
        peer.spin_until(time.monotonic() + 0.05)
    say(event="summary", commands_received=received)


def script(args, peer, stopper):
    writer = peer.node.create_publisher(JointState, args.states, sensor_data())
    messages = json.load(sys.stdin)
    say(event="ready")
    time.sleep(args.settle)
    for message in messages:
        for _ in range(args.repeat):
            if stopper.stopped:
                break
            writer.publish(JointState(
                header=Header(stamp=stamp(now_ns())),
                name=message.get("name", []),
                position=[float(v) for v in message.get("position", [])],
                velocity=[float(v) for v in message.get("velocity", [])],
                effort=[float(v) for v in message.get("effort", [])],
            ))
            time.sleep(args.interval)
    say(event="summary", scripted=len(messages))


def trajectory(args, peer, stopper):
    """As rqt_joint_trajectory_controller or a MoveIt user would: publishes the
    trajectory_msgs/JointTrajectory messages of a JSON list (stdin) on their `topic`, each `after`
    seconds from the start, stamped now (or zero: `"stamp": 0`, meaning on receipt), and prints
    every /joint_states it reads, so the test sees where the joints were when."""
    node = peer.node
    goals = json.load(sys.stdin)
    writers = {}
    for goal in goals:
        if goal["topic"] not in writers:
            writers[goal["topic"]] = node.create_publisher(JointTrajectory, goal["topic"],
                                                           reliable(10))

    def joint_states(message):
        say(event="joint_states", stamp=stamp_ns(message.header.stamp),
            name=list(message.name), position=as_json(message.position))

    node.create_subscription(JointState, "/joint_states", joint_states, reliable(100))
    if args.sim_time:
        node.set_parameters([Parameter("use_sim_time", Parameter.Type.BOOL, True)])
    say(event="ready")
    time.sleep(args.settle)
    # On simulated time the node's clock is /clock's (zero until its first tick).
    while args.sim_time and node.get_clock().now().nanoseconds == 0 and not stopper.stopped:
        peer.spin_until(time.monotonic() + 0.001)
    start = time.monotonic()
    pending = sorted(goals, key=lambda g: g.get("after", 0.0))
    while not stopper.stopped and (args.seconds <= 0 or time.monotonic() - start < args.seconds):
        while pending and time.monotonic() - start >= pending[0].get("after", 0.0):
            goal = pending.pop(0)
            now = node.get_clock().now().nanoseconds if args.sim_time else now_ns()
            points = []
            for point in goal["points"]:
                t = float(point["time_from_start"])
                points.append(JointTrajectoryPoint(
                    positions=[float(v) for v in point.get("positions", [])],
                    velocities=[float(v) for v in point.get("velocities", [])],
                    time_from_start=Duration(sec=int(t), nanosec=int(round((t % 1) * 1e9)))))
            writers[goal["topic"]].publish(JointTrajectory(
                header=Header(stamp=Time() if goal.get("stamp", None) == 0 else stamp(now)),
                joint_names=goal["joint_names"], points=points))
            say(event="published", topic=goal["topic"], stamp=now)
        peer.spin_until(time.monotonic() + 0.001)
    say(event="summary", published=len(goals) - len(pending))


def policy_name(policy):
    """`Reliable` for ReliabilityPolicy.RELIABLE, `TransientLocal` for TRANSIENT_LOCAL: as
    peer.py names Cyclone's policies."""
    return "".join(word.capitalize() for word in policy.name.split("_"))


def endpoint_json(info):
    """An endpoint as rclpy's graph gives it (what `ros2 topic info -v` prints)."""
    qos = info.qos_profile
    return dict(
        node_name=info.node_name,
        node_namespace=info.node_namespace,
        topic_type=info.topic_type,
        topic_type_hash=str(info.topic_type_hash),
        reliability=policy_name(qos.reliability),
        durability=policy_name(qos.durability),
        history=policy_name(qos.history),
        depth=qos.depth,
    )


def endpoints(node, topic, kind):
    """The publishers (`kind` "publishers") or subscriptions of `topic`, this peer's left out,
    keyed by their GID."""
    found = (node.get_publishers_info_by_topic(topic) if kind == "publishers"
             else node.get_subscriptions_info_by_topic(topic))
    return {bytes(info.endpoint_gid): endpoint_json(info) for info in found
            if (info.node_name, info.node_namespace)
            != (node.get_name(), node.get_namespace())}


def listen(args, peer, stopper):
    node = peer.node
    received = 0

    def command(message):
        nonlocal received
        received += 1
        say(event="command", name=list(message.name), position=as_json(message.position),
            velocity=as_json(message.velocity), effort=as_json(message.effort))

    node.create_subscription(JointState, args.commands, command, reliable(1))
    say(event="ready")
    start = time.monotonic()
    writers = {}
    readers = {}
    while not stopper.stopped and time.monotonic() - start < args.seconds:
        peer.spin_until(time.monotonic() + 0.05)
        # Every endpoint seen while listening, as peer.py collects Cyclone's discovery samples.
        writers.update(endpoints(node, args.commands, "publishers"))
        readers.update(endpoints(node, args.states, "subscriptions"))
    say(
        event="summary",
        commands_received=received,
        writers=list(writers.values()),
        readers=list(readers.values()),
    )


def nodes(args, peer, stopper):
    node = peer.node
    topics = [t for t in args.topics.split(",") if t]
    seen_nodes = {}
    publishers = {t: {} for t in topics}
    subscriptions = {t: {} for t in topics}
    own = (node.get_name(), node.get_namespace())
    say(event="ready")
    start = time.monotonic()
    while not stopper.stopped and time.monotonic() - start < args.seconds:
        peer.spin_until(time.monotonic() + 0.1)
        for name, namespace in node.get_node_names_and_namespaces():
            if (name, namespace) != own:
                seen_nodes[(name, namespace)] = dict(name=name, namespace=namespace)
        for topic in topics:
            publishers[topic].update(endpoints(node, topic, "publishers"))
            subscriptions[topic].update(endpoints(node, topic, "subscriptions"))
    say(
        event="summary",
        nodes=list(seen_nodes.values()),
        topics={t: dict(publishers=list(publishers[t].values()),
                        subscriptions=list(subscriptions[t].values())) for t in topics},
    )


def graph(args, peer, stopper):
    """The robot in the ROS 2 graph, as its subscribers see it: QoS as joint_state_broadcaster
    and robot_state_publisher's listeners ask for it. No /tf, /tf_static: no tf2_msgs here."""
    node = peer.node
    ns = graph_namespace(args.namespace)
    counts = {}

    def subscribe(name, topic, kind, qos, show):
        counts[name] = 0

        def received(message):
            counts[name] += 1
            if counts[name] <= args.max:
                show(message)

        node.create_subscription(kind, ns + "/" + topic, received, qos)

    def joint_states(message):
        say(event="joint_states", stamp=stamp_ns(message.header.stamp),
            frame_id=message.header.frame_id, name=list(message.name),
            position=as_json(message.position), velocity=as_json(message.velocity),
            effort=as_json(message.effort))

    def imu(message):
        o, w, a = message.orientation, message.angular_velocity, message.linear_acceleration
        say(event="imu", stamp=stamp_ns(message.header.stamp),
            frame_id=message.header.frame_id,
            orientation=as_json([o.x, o.y, o.z, o.w]),
            angular_velocity=as_json([w.x, w.y, w.z]),
            linear_acceleration=as_json([a.x, a.y, a.z]),
            covariance=as_json(list(message.orientation_covariance)
                               + list(message.angular_velocity_covariance)
                               + list(message.linear_acceleration_covariance)))

    def diagnostics(message):
        say(event="diagnostics", stamp=stamp_ns(message.header.stamp),
            # `level` is a ROS `byte`: one `bytes` in rclpy.
            status=[dict(level=ord(s.level), name=s.name, message=s.message,
                         hardware_id=s.hardware_id,
                         values={kv.key: kv.value for kv in s.values})
                    for s in message.status])

    def wrench(sensor):
        def show(message):
            f, t = message.wrench.force, message.wrench.torque
            say(event="wrench", sensor=sensor, stamp=stamp_ns(message.header.stamp),
                frame_id=message.header.frame_id,
                force=as_json([f.x, f.y, f.z]), torque=as_json([t.x, t.y, t.z]))
        return show

    # Keep-last 10 as RViz asks; --depth N asks for more (the loss measurements).
    subscribe("joint_states", "joint_states", JointState, reliable(max(10, args.depth)),
              joint_states)
    subscribe("imu", "imu/data", Imu, reliable(10), imu)
    subscribe("robot_description", "robot_description", String, transient_local(1),
              lambda message: say(event="robot_description", data=message.data))
    subscribe("diagnostics", "diagnostics", DiagnosticArray, reliable(10), diagnostics)
    for sensor in filter(None, args.wrench.split(",")):
        subscribe("wrench:" + sensor, sensor + "_broadcaster/wrench", WrenchStamped,
                  reliable(10), wrench(sensor))
    say(event="ready")
    start = time.monotonic()
    while not stopper.stopped and (args.seconds <= 0 or time.monotonic() - start < args.seconds):
        peer.spin_until(time.monotonic() + 0.01)
    say(event="summary", **counts)


def call(peer, node_name, service, kind, request):
    """Calls `node_name`'s parameter `service` (`get_parameters`, ...) as `ros2 param` does:
    waits for the service (10 s), then for the response (10 s); None when either never came."""
    client = peer.node.create_client(kind, f"{node_name}/{service}")
    try:
        if not client.wait_for_service(timeout_sec=10.0):
            return None
        future = client.call_async(request)
        deadline = time.monotonic() + 10.0
        while not future.done() and time.monotonic() < deadline:
            peer.spin_until(time.monotonic() + 0.01)
        return future.result() if future.done() else None
    finally:
        peer.node.destroy_client(client)


def params(args, peer, stopper):
    """As `ros2 param` and a use_sim_time node would: runs the requests of a JSON list (stdin)
    in order, printing an event for each, then /parameter_events and /clock as seen meanwhile.
      {"op": "get", "node": N, "names": [...]}           values (null for one not set)
      {"op": "list", "node": N, "prefixes": [...], "depth": D}   names, prefixes
      {"op": "describe", "node": N, "names": [...]}      name, type, read_only, description
      {"op": "set", "node": N, "name": P, "value": V}    successful, reason
      {"op": "set_atomically", "node": N, "values": {P: V, ...}}   successful, reason
      {"op": "wait", "seconds": S}
    A call that gets no answer prints {"event": <op>, "answered": false}."""
    from rcl_interfaces.msg import ParameterEvent
    from rcl_interfaces.srv import (DescribeParameters, GetParameters, ListParameters,
                                    SetParameters, SetParametersAtomically)
    from rclpy.parameter import parameter_value_to_python
    from rosgraph_msgs.msg import Clock

    node = peer.node
    events = []
    clock = []
    node.create_subscription(
        ParameterEvent, "/parameter_events",
        lambda e: events.append(dict(node=e.node, changed=[p.name for p in e.changed_parameters],
                                     new=[p.name for p in e.new_parameters])),
        QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE))
    node.create_subscription(
        Clock, "/clock", lambda c: clock.append(stamp_ns(c.clock)),
        QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
    requests = json.load(sys.stdin)
    say(event="ready")
    for r in requests:
        if stopper.stopped:
            break
        op, name = r["op"], r.get("node", "")
        if op == "wait":
            peer.spin_until(time.monotonic() + float(r["seconds"]))
            continue
        if op == "get":
            response = call(peer, name, "get_parameters", GetParameters,
                            GetParameters.Request(names=r["names"]))
            fields = lambda a: dict(values=[parameter_value_to_python(v) for v in a.values])
        elif op == "list":
            response = call(peer, name, "list_parameters", ListParameters,
                            ListParameters.Request(prefixes=r.get("prefixes", []),
                                                   depth=r.get("depth", 0)))
            fields = lambda a: dict(names=list(a.result.names), prefixes=list(a.result.prefixes))
        elif op == "describe":
            response = call(peer, name, "describe_parameters", DescribeParameters,
                            DescribeParameters.Request(names=r["names"]))
            fields = lambda a: dict(descriptors=[
                dict(name=d.name, type=d.type, read_only=d.read_only, description=d.description)
                for d in a.descriptors])
        elif op == "set":
            response = call(peer, name, "set_parameters", SetParameters, SetParameters.Request(
                parameters=[Parameter(r["name"], value=r["value"]).to_parameter_msg()]))
            fields = lambda a: dict(successful=a.results[0].successful,
                                    reason=a.results[0].reason)
        elif op == "set_atomically":
            response = call(peer, name, "set_parameters_atomically", SetParametersAtomically,
                            SetParametersAtomically.Request(parameters=[
                                Parameter(k, value=v).to_parameter_msg()
                                for k, v in r["values"].items()]))
            fields = lambda a: dict(successful=a.result.successful, reason=a.result.reason)
        else:
            raise SystemExit(f"params: no op {op}")
        if response is None:
            say(event=op, node=name, answered=False)
        else:
            say(event=op, node=name, answered=True, **fields(response))
    peer.spin_until(time.monotonic() + 0.2)
    say(event="summary", parameter_events=events, clock_count=len(clock),
        clock_first=clock[0] if clock else None, clock_last=clock[-1] if clock else None)


def control(args, peer, stopper):
    """As `ros2 control` and a teleoperation node would: runs the requests of a JSON list (stdin)
    in order, printing an event for each:
      {"op": "list_controllers"}          controllers: name, type, state, claimed, required
      {"op": "list_controller_types"}     types, base_classes
      {"op": "list_hardware_interfaces"}  command and state interfaces: name, available, claimed
      {"op": "list_hardware_components"}  name, type, plugin, state, interfaces of each
      {"op": "set_component", "name": N, "state": "active" or "inactive"}  ok, state
      {"op": "switch", "activate": [...], "deactivate": [...], "strictness": "strict" or
       "best_effort", "timeout": S}       ok, message
      {"op": "command", "topic": T, "data": [...], "seconds": S}  publishes Float64MultiArray
                                          on T at 50 Hz for S seconds
      {"op": "joint_states"}              the newest /joint_states: positions and efforts by
                                          name, and how many have arrived
      {"op": "diagnostics"}               the newest /diagnostics status of each name
      {"op": "wait", "seconds": S}
    "node" (default /controller_manager, in --namespace) names the controller manager. A call
    that gets no answer prints {"event": <op>, "answered": false}."""
    from controller_manager_msgs.srv import (ListControllerTypes, ListControllers,
                                             ListHardwareComponents, ListHardwareInterfaces,
                                             SetHardwareComponentState, SwitchController)
    from std_msgs.msg import Float64MultiArray

    node = peer.node
    latest = {}
    node.create_subscription(
        JointState, graph_namespace(args.namespace) + "/joint_states",
        lambda m: latest.update(positions=dict(zip(m.name, m.position)),
                                efforts=dict(zip(m.name, m.effort)),
                                count=latest.get("count", 0) + 1), reliable(10))
    statuses = {}
    node.create_subscription(
        DiagnosticArray, graph_namespace(args.namespace) + "/diagnostics",
        lambda m: statuses.update({s.name: dict(level=int.from_bytes(s.level, "little")
                                                if isinstance(s.level, bytes) else int(s.level),
                                                message=s.message,
                                                values={v.key: v.value for v in s.values})
                                   for s in m.status}), reliable(10))
    publishers = {}
    requests = json.load(sys.stdin)
    say(event="ready")
    for r in requests:
        if stopper.stopped:
            break
        op = r["op"]
        if op == "diagnostics":
            peer.spin_until(time.monotonic() + 0.1)
            say(event=op, statuses=dict(statuses))
            continue
        manager = r.get("node", graph_namespace(args.namespace) + "/controller_manager")
        if op == "wait":
            peer.spin_until(time.monotonic() + float(r["seconds"]))
            continue
        if op == "joint_states":
            peer.spin_until(time.monotonic() + 0.1)
            say(event=op, positions=latest.get("positions", {}), efforts=latest.get("efforts", {}),
                count=latest.get("count", 0))
            continue
        if op == "command":
            topic = r["topic"]
            if topic not in publishers:
                publishers[topic] = node.create_publisher(Float64MultiArray, topic, reliable(10))
            end = time.monotonic() + float(r.get("seconds", 1.0))
            sent = 0
            while time.monotonic() < end and not stopper.stopped:
                publishers[topic].publish(Float64MultiArray(data=[float(v) for v in r["data"]]))
                sent += 1
                peer.spin_until(time.monotonic() + 0.02)
            say(event=op, topic=topic, sent=sent)
            continue
        if op == "list_controllers":
            response = call(peer, manager, "list_controllers", ListControllers,
                            ListControllers.Request())
            fields = lambda a: dict(controllers=[dict(
                name=c.name, type=c.type, state=c.state, update_rate=c.update_rate,
                claimed=list(c.claimed_interfaces),
                required_command=list(c.required_command_interfaces),
                required_state=list(c.required_state_interfaces)) for c in a.controller])
        elif op == "list_controller_types":
            response = call(peer, manager, "list_controller_types", ListControllerTypes,
                            ListControllerTypes.Request())
            fields = lambda a: dict(types=list(a.types), base_classes=list(a.base_classes))
        elif op == "list_hardware_interfaces":
            response = call(peer, manager, "list_hardware_interfaces", ListHardwareInterfaces,
                            ListHardwareInterfaces.Request())
            shown = lambda l: [dict(name=i.name, available=i.is_available, claimed=i.is_claimed)
                               for i in l]
            fields = lambda a: dict(command=shown(a.command_interfaces),
                                    state=shown(a.state_interfaces))
        elif op == "list_hardware_components":
            response = call(peer, manager, "list_hardware_components", ListHardwareComponents,
                            ListHardwareComponents.Request())
            fields = lambda a: dict(components=[dict(
                name=c.name, type=c.type, plugin=c.plugin_name, state=c.state.label,
                state_id=c.state.id,
                command=[dict(name=i.name, available=i.is_available, claimed=i.is_claimed)
                         for i in c.command_interfaces],
                states=[i.name for i in c.state_interfaces]) for c in a.component])
        elif op == "set_component":
            from lifecycle_msgs.msg import State
            ids = {"active": State.PRIMARY_STATE_ACTIVE, "inactive": State.PRIMARY_STATE_INACTIVE,
                   "unconfigured": State.PRIMARY_STATE_UNCONFIGURED,
                   "finalized": State.PRIMARY_STATE_FINALIZED}
            request = SetHardwareComponentState.Request(
                name=r["name"], target_state=State(id=ids[r["state"]], label=r["state"]))
            response = call(peer, manager, "set_hardware_component_state",
                            SetHardwareComponentState, request)
            fields = lambda a: dict(ok=a.ok, state=a.state.label)
        elif op == "switch":
            strictness = {"strict": SwitchController.Request.STRICT,
                          "best_effort": SwitchController.Request.BEST_EFFORT}[
                              r.get("strictness", "strict")]
            timeout = float(r.get("timeout", 5.0))
            request = SwitchController.Request(
                activate_controllers=r.get("activate", []),
                deactivate_controllers=r.get("deactivate", []), strictness=strictness,
                activate_asap=True,
                timeout=Duration(sec=int(timeout), nanosec=int((timeout % 1) * 1e9)))
            response = call(peer, manager, "switch_controller", SwitchController, request)
            fields = lambda a: dict(ok=a.ok, message=a.message)
        else:
            raise SystemExit(f"control: no op {op}")
        if response is None:
            say(event=op, answered=False)
        else:
            say(event=op, answered=True, **fields(response))
    say(event="summary", requests=len(requests))


def action(args, peer, stopper):
    """As MoveIt executes trajectories: rclpy's ActionClient of control_msgs'
    FollowJointTrajectory on --action, for each goal of a JSON list (stdin), in order:
      {"joints": [...], "positions": [...], "time": S}  one point, or
      {"joints": [...], "points": [{"positions": [...], "velocities": [...], "time": S}, ...]}
      and optionally
      "path_tolerance" / "goal_tolerance": {joint: position tolerance}, "goal_time_tolerance": S,
      "cancel_after": S   cancels it S seconds after it was accepted
      "next_after": S     sends the next goal S seconds after this one was accepted, without
                          waiting for this one's result (to preempt it)
      "hold_check": S     /joint_states at the result and S seconds later: how far each joint
                          moved in between
      "wait_before": S    waits S seconds before sending it
    prints, per goal, {"event": "goal", "index": I, "accepted": bool, "feedback": N,
    "feedback_joints": [...], "max_feedback_error": E, "status": S, "error_code": E,
    "error_string": "...", "moved": {joint: rad}} (all but index and accepted only when
    accepted; moved only with hold_check), once its result is in; a cancel's return code. The
    summary counts the messages of the controller's ~/controller_state (the action's node's) and
    gives the joints the last one named."""
    from control_msgs.action import FollowJointTrajectory
    from control_msgs.msg import JointTolerance, JointTrajectoryControllerState
    from rclpy.action import ActionClient

    states = {"count": 0, "joints": []}
    peer.node.create_subscription(
        JointTrajectoryControllerState, args.action.rsplit("/", 1)[0] + "/controller_state",
        lambda m: states.update(count=states["count"] + 1, joints=list(m.joint_names)),
        reliable(10))
    latest = {}
    peer.node.create_subscription(
        JointState, graph_namespace(args.namespace) + "/joint_states",
        lambda m: latest.update(dict(zip(m.name, m.position))), reliable(10))

    def duration(t):
        t = float(t)
        return Duration(sec=int(t), nanosec=int(round((t % 1) * 1e9)) % 1_000_000_000)

    def tolerances(given):
        return [JointTolerance(name=j, position=float(p)) for j, p in (given or {}).items()]

    def spin_until_done(future, on_tick=None):
        while not future.done() and not stopper.stopped:
            peer.spin_until(time.monotonic() + 0.01)
            if on_tick:
                on_tick()

    client = ActionClient(peer.node, FollowJointTrajectory, args.action)
    goals = json.load(sys.stdin)
    say(event="ready")
    if not client.wait_for_server(timeout_sec=10.0):
        say(event="no_server")
        say(event="summary")
        return
    running = []  # (index, g, handle, result future, feedback list, cancel_at)

    def finish(entry):
        index, g, handle, result, feedback, _ = entry
        spin_until_done(result)
        answer = result.result()
        event = dict(event="goal", index=index, accepted=True, feedback=len(feedback),
                     status=answer.status, error_code=answer.result.error_code,
                     error_string=answer.result.error_string)
        if feedback:
            last = feedback[-1].feedback
            event["feedback_joints"] = list(last.joint_names)
            event["max_feedback_error"] = max(
                (abs(e) for f in feedback for e in f.feedback.error.positions), default=0.0)
        if "hold_check" in g:
            peer.spin_until(time.monotonic() + 0.05)
            at_result = dict(latest)
            peer.spin_until(time.monotonic() + float(g["hold_check"]))
            event["moved"] = {j: abs(latest[j] - at_result[j]) for j in g["joints"]
                              if j in latest and j in at_result}
        say(**event)

    for index, g in enumerate(goals):
        if stopper.stopped:
            break
        peer.spin_until(time.monotonic() + float(g.get("wait_before", 0.0)))
        goal = FollowJointTrajectory.Goal()
        goal.trajectory.joint_names = g["joints"]
        points = g.get("points") or [{"positions": g["positions"], "time": g.get("time", 1.0)}]
        for p in points:
            point = JointTrajectoryPoint(positions=[float(x) for x in p["positions"]])
            if "velocities" in p:
                point.velocities = [float(x) for x in p["velocities"]]
            point.time_from_start = duration(p["time"])
            goal.trajectory.points.append(point)
        goal.path_tolerance = tolerances(g.get("path_tolerance"))
        goal.goal_tolerance = tolerances(g.get("goal_tolerance"))
        goal.goal_time_tolerance = duration(g.get("goal_time_tolerance", 0.0))
        feedback = []
        sent = client.send_goal_async(goal, feedback_callback=feedback.append)
        spin_until_done(sent)
        handle = sent.result()
        if handle is None or not handle.accepted:
            say(event="goal", index=index, accepted=False)
            continue
        accepted_at = time.monotonic()
        cancel_at = accepted_at + float(g["cancel_after"]) if "cancel_after" in g else None
        entry = [index, g, handle, handle.get_result_async(), feedback, cancel_at]
        if "next_after" in g:
            running.append(entry)
            peer.spin_until(accepted_at + float(g["next_after"]))
            continue

        def cancel_when_due():
            if entry[5] is not None and time.monotonic() >= entry[5]:
                entry[5] = None
                canceled = handle.cancel_goal_async()
                spin_until_done(canceled)
                say(event="cancel", index=index, return_code=canceled.result().return_code,
                    canceling=len(canceled.result().goals_canceling))

        spin_until_done(entry[3], cancel_when_due)
        for earlier in running:
            finish(earlier)
        running.clear()
        finish(entry)
    for earlier in running:
        finish(earlier)
    say(event="summary", controller_state=states["count"], controller_state_joints=states["joints"])


def sensors(args, peer, stopper):
    values = json.load(sys.stdin)
    wrench = peer.node.create_publisher(WrenchStamped, args.wrench, sensor_data())
    contact = peer.node.create_publisher(Bool, args.imu, sensor_data())
    say(event="ready")
    sent, end = 0, time.monotonic() + args.seconds
    while time.monotonic() < end and not stopper.stopped:
        message = WrenchStamped()
        message.header = Header(stamp=stamp(now_ns()), frame_id="foot")
        message.wrench.force.z = float(values["force_z"])
        message.wrench.torque.y = float(values.get("torque_y", 0.0))
        wrench.publish(message)
        contact.publish(Bool(data=bool(values["contact"])))
        sent += 1
        time.sleep(1.0 / args.rate)
    say(event="summary", sent=sent)


MODES = {"sim": sim, "echo": echo, "script": script, "listen": listen, "graph": graph,
         "trajectory": trajectory, "nodes": nodes, "params": params, "control": control,
         "action": action, "sensors": sensors}


def main():
    args = parse_args(__doc__, list(MODES))
    stopper = Stopper()
    peer = Peer(args)
    try:
        MODES[args.mode](args, peer, stopper)
    finally:
        peer.close()


if __name__ == "__main__":
    main()
