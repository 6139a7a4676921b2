"""The independent DDS peer of the topic backend's tests: Eclipse Cyclone DDS (PyPI `cyclonedds`)
playing the other end of `joint_state_topic_hardware_interface`.

Modes (each prints one JSON object per line on stdout; the last line is a summary):

  sim     a simulator of the joints of --joints (or of --urdf's <ros2_control> blocks): takes
          JointState commands, moves each joint towards its commanded
          position (first-order, time constant --tau), publishes JointState at --rate Hz
          (and an Imu on --imu); --stop-after S stops publishing after S seconds
  echo    for round trips: answers every command at once with a JointState carrying the
          command's stamp and positions
  ping    the Cyclone-to-Cyclone baseline of a round trip: publishes commands at --rate Hz
          for --seconds, times each echo
  script  publishes the JointStates of a JSON list (stdin), each --repeat times --interval apart
  listen  prints every command it receives and what discovery says about its writers
  trajectory  publishes the JointTrajectory goals of a JSON list (stdin) at their times and
          prints every /joint_states it reads
  graph   subscribes as RViz would to /joint_states, /imu/data, /tf, /tf_static,
          /robot_description and /diagnostics (in --namespace; /tf_static and
          /robot_description transient-local, so a late joiner gets them), and each
          /<sensor>_broadcaster/wrench of --wrench (comma-separated force/torque sensors),
          prints the first --max messages of each, and counts the rest
  sensors  a sensor's driver: publishes a WrenchStamped on --wrench and a Bool on --imu (the
          contact topic) at --rate Hz for --seconds, force z and the switch from a JSON object
          (stdin: {"force_z": 12.5, "contact": true}), sensor data QoS
  participants  for --seconds, what discovery says about the other DDS participants of the
          domain: each one's key with the topics of the writers and readers it owns (a ROS 2
          process is one participant, whatever its nodes)

Every mode first prints {"event": "ready"} once its endpoints exist. The command line and the
helpers are peer_common.py's, shared with rclpy_peer.py (the same modes over ROS 2's rclpy).
"""

import json
import math
import sys
import time

from cyclonedds.builtin import (
    BuiltinDataReader,
    BuiltinTopicDcpsParticipant,
    BuiltinTopicDcpsPublication,
    BuiltinTopicDcpsSubscription,
)
from cyclonedds.core import ReadCondition, SampleState, ViewState, InstanceState, WaitSet
from cyclonedds.domain import DomainParticipant
from cyclonedds.internal import InvalidSample
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration

import ros_types as ros
from peer_common import Stopper, as_json, graph_namespace, parse_args, say, sim_joints, wrap


def stamp_now():
    ns = time.time_ns()
    return ros.Time(sec=ns // 1_000_000_000, nanosec=ns % 1_000_000_000)


def stamp_ns(t):
    return t.sec * 1_000_000_000 + t.nanosec


def take_all(reader):
    return [s for s in reader.take(N=1000) if not isinstance(s, InvalidSample)]


def endpoints(args, participant):
    commands = Topic(participant, ros.dds_topic(args.commands), ros.JointState, qos=ros.reliable(1))
    states = Topic(participant, ros.dds_topic(args.states), ros.JointState, qos=ros.sensor_data())
    return commands, states


def sim(args, participant, stopper):
    commands, states = endpoints(args, participant)
    reader = DataReader(participant, commands, qos=ros.reliable(1))
    writer = DataWriter(participant, states, qos=ros.sensor_data())
    imu_writer = None
    if args.imu:
        imu_topic = Topic(participant, ros.dds_topic(args.imu), ros.Imu, qos=ros.sensor_data())
        imu_writer = DataWriter(participant, imu_topic, qos=ros.sensor_data())
    names = sim_joints(args)
    position = {n: float(args.initial) for n in names}
    velocity = {n: 0.0 for n in names}
    target = {}
    received = published = 0
    period = 1.0 / args.rate
    start = time.monotonic()
    next_tick = start
    say(event="ready")
    while not stopper.stopped:
        now = time.monotonic()
        if args.seconds and now - start >= args.seconds:
            break
        for command in take_all(reader):
            received += 1
            for i, name in enumerate(command.name):
                if i < len(command.position) and math.isfinite(command.position[i]):
                    target[name] = command.position[i]
        for name in names:
            if name in target:
                old = position[name]
                position[name] += (target[name] - old) * min(1.0, period / args.tau)
                velocity[name] = (position[name] - old) / period
        stopped_publishing = args.stop_after and now - start >= args.stop_after
        if not stopped_publishing:
            reported = [wrap(position[n]) if args.wrap else position[n] for n in names]
            writer.write(ros.JointState(
                header=ros.Header(stamp=stamp_now()),
                name=names,
                position=reported,
                velocity=[velocity[n] for n in names],
                effort=[0.0] * len(names),
            ))
            if imu_writer is not None:
                imu_writer.write(ros.Imu(header=ros.Header(stamp=stamp_now(), frame_id="imu")))
            published += 1
        next_tick += period
        delay = next_tick - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            next_tick = time.monotonic()
    say(event="summary", commands_received=received, states_published=published,
        positions={n: position[n] for n in names})


def echo(args, participant, stopper):
    commands, states = endpoints(args, participant)
    reader = DataReader(participant, commands, qos=ros.reliable(args.depth))
    writer = DataWriter(participant, states, qos=ros.sensor_data())
    waitset = WaitSet(participant)
    waitset.attach(ReadCondition(reader, SampleState.Any | ViewState.Any | InstanceState.Any))
    received = 0
    start = time.monotonic()
    say(event="ready")
    while not stopper.stopped and not (args.seconds and time.monotonic() - start >= args.seconds):
        waitset.wait(duration(milliseconds=50))
        for command in take_all(reader):
            received += 1
            writer.write(ros.JointState(header=command.header, name=command.name,
                                        position=command.position))
    say(event="summary", commands_received=received)


def ping(args, participant, stopper):
    # The roles of `echo` turned round: commands out, states in.
    commands, states = endpoints(args, participant)
    writer = DataWriter(participant, commands, qos=ros.reliable(args.depth))
    reader = DataReader(participant, states, qos=ros.sensor_data())
    say(event="ready")
    # Discovery first: nothing is counted before the echo answers.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not take_all(reader):
        writer.write(ros.JointState(header=ros.Header(stamp=stamp_now()), name=["warmup"]))
        time.sleep(0.05)
    time.sleep(0.2)
    take_all(reader)
    period = 1.0 / args.rate
    waitset = WaitSet(participant)
    waitset.attach(ReadCondition(reader, SampleState.Any | ViewState.Any | InstanceState.Any))
    sent = {}
    round_trips = []
    count = int(args.seconds * args.rate)

    def collect():
        arrived = time.time_ns()
        for state in take_all(reader):
            key = stamp_ns(state.header.stamp)
            if sent.pop(key, None):
                round_trips.append(arrived - key)

    next_tick = time.monotonic()
    for i in range(count):
        if stopper.stopped:
            break
        stamp = stamp_now()
        sent[stamp_ns(stamp)] = True
        writer.write(ros.JointState(header=ros.Header(stamp=stamp), name=["j"], position=[float(i)]))
        next_tick += period
        # Sleep in the wait set until the answer or the next tick, whichever comes first.
        while (left := next_tick - time.monotonic()) > 0:
            waitset.wait(duration(nanoseconds=int(left * 1e9)))
            collect()
    deadline = time.monotonic() + 0.3
    while (left := deadline - time.monotonic()) > 0:
        waitset.wait(duration(nanoseconds=int(left * 1e9)))
        collect()
    say(event="summary", sent=count, answered=len(round_trips), round_trips_ns=round_trips)


def script(args, participant, stopper):
    _, states = endpoints(args, participant)
    writer = DataWriter(participant, states, qos=ros.sensor_data())
    messages = json.load(sys.stdin)
    say(event="ready")
    time.sleep(args.settle)
    for message in messages:
        for _ in range(args.repeat):
            if stopper.stopped:
                break
            writer.write(ros.JointState(
                header=ros.Header(stamp=stamp_now()),
                name=message.get("name", []),
                position=[float(v) for v in message.get("position", [])],
                velocity=[float(v) for v in message.get("velocity", [])],
                effort=[float(v) for v in message.get("effort", [])],
            ))
            time.sleep(args.interval)
    say(event="summary", scripted=len(messages))


def trajectory(args, participant, stopper):
    """As rqt_joint_trajectory_controller or a MoveIt user would: publishes the
    trajectory_msgs/JointTrajectory messages of a JSON list (stdin) on their `topic`, each `after`
    seconds from the start, stamped now (or zero: `"stamp": 0`, meaning on receipt), and prints
    every /joint_states it reads, so the test sees where the joints were when."""
    goals = json.load(sys.stdin)
    writers = {}
    for goal in goals:
        topic = goal["topic"]
        if topic not in writers:
            writers[topic] = DataWriter(participant, Topic(
                participant, ros.dds_topic(topic), ros.JointTrajectory), qos=ros.reliable(10))
    states = DataReader(participant, Topic(
        participant, ros.dds_topic("/joint_states"), ros.JointState), qos=ros.reliable(100))
    clock = DataReader(participant, Topic(participant, ros.dds_topic("/clock"), ros.Clock),
                       qos=ros.sensor_data()) if args.sim_time else None
    latest_clock = None
    say(event="ready")
    time.sleep(args.settle)
    # On simulated time the goals are stamped on /clock, and wait for its first tick.
    while clock is not None and latest_clock is None and not stopper.stopped:
        ticks = take_all(clock)
        latest_clock = ticks[-1].clock if ticks else None
        time.sleep(0.001)
    start = time.monotonic()
    pending = sorted(goals, key=lambda g: g.get("after", 0.0))
    while not stopper.stopped and (args.seconds <= 0 or time.monotonic() - start < args.seconds):
        while pending and time.monotonic() - start >= pending[0].get("after", 0.0):
            goal = pending.pop(0)
            if clock is not None:
                latest_clock = ([latest_clock] + [t.clock for t in take_all(clock)])[-1]
            now = latest_clock if clock is not None else stamp_now()
            stamp = ros.Time() if goal.get("stamp", None) == 0 else now
            points = []
            for point in goal["points"]:
                t = float(point["time_from_start"])
                points.append(ros.JointTrajectoryPoint(
                    positions=[float(v) for v in point.get("positions", [])],
                    velocities=[float(v) for v in point.get("velocities", [])],
                    time_from_start=ros.Duration(sec=int(t), nanosec=int(round((t % 1) * 1e9)))))
            writers[goal["topic"]].write(ros.JointTrajectory(
                header=ros.Header(stamp=stamp), joint_names=goal["joint_names"], points=points))
            say(event="published", topic=goal["topic"], stamp=stamp_ns(now))
        for message in take_all(states):
            say(event="joint_states", stamp=stamp_ns(message.header.stamp),
                name=list(message.name), position=as_json(message.position))
        time.sleep(0.001)
    say(event="summary", published=len(goals) - len(pending))


def policy_name(policy):
    """`Reliable` for `Policy.Reliability.Reliable(...)`."""
    return type(policy).__name__.split(".")[-1]


def user_data(qos):
    """An endpoint's USER_DATA as text (where ROS 2 Jazzy announces its type hash), or None."""
    try:
        return qos[ros.Policy.Userdata].data.decode()
    except KeyError:
        return None


def listen(args, participant, stopper):
    commands, _ = endpoints(args, participant)
    reader = DataReader(participant, commands, qos=ros.reliable(1))
    publications = BuiltinDataReader(participant, BuiltinTopicDcpsPublication)
    subscriptions = BuiltinDataReader(participant, BuiltinTopicDcpsSubscription)
    say(event="ready")
    start = time.monotonic()
    writers = {}
    readers = {}
    received = 0
    while not stopper.stopped and time.monotonic() - start < args.seconds:
        for command in take_all(reader):
            received += 1
            say(event="command", name=list(command.name), position=as_json(command.position),
                velocity=as_json(command.velocity), effort=as_json(command.effort))
        for p in publications.take(N=100):
            if isinstance(p, InvalidSample) or p.topic_name != ros.dds_topic(args.commands):
                continue
            qos = p.qos
            writers[str(p.key)] = dict(
                topic_name=p.topic_name,
                type_name=p.type_name,
                reliability=policy_name(qos[ros.Policy.Reliability]),
                history=policy_name(qos[ros.Policy.History]),
                depth=getattr(qos[ros.Policy.History], "depth", None),
                durability=policy_name(qos[ros.Policy.Durability]),
                user_data=user_data(qos),
            )
        for r in subscriptions.take(N=100):
            if isinstance(r, InvalidSample) or r.topic_name != ros.dds_topic(args.states):
                continue
            readers[str(r.key)] = dict(
                topic_name=r.topic_name, type_name=r.type_name, user_data=user_data(r.qos)
            )
        time.sleep(0.002)
    say(
        event="summary",
        commands_received=received,
        writers=list(writers.values()),
        readers=list(readers.values()),
    )


def participants(args, participant, stopper):
    found = BuiltinDataReader(participant, BuiltinTopicDcpsParticipant)
    publications = BuiltinDataReader(participant, BuiltinTopicDcpsPublication)
    subscriptions = BuiltinDataReader(participant, BuiltinTopicDcpsSubscription)
    say(event="ready")
    own = str(participant.guid)
    seen = {}

    def owner(key):
        return seen.setdefault(key, dict(key=key, writers=set(), readers=set()))

    start = time.monotonic()
    while not stopper.stopped and time.monotonic() - start < args.seconds:
        for p in found.take(N=100):
            if not isinstance(p, InvalidSample):
                owner(str(p.key))
        # A disposed endpoint's sample carries its key only.
        for p in publications.take(N=1000):
            if not isinstance(p, InvalidSample) and p.topic_name:
                owner(str(p.participant_key))["writers"].add(p.topic_name)
        for r in subscriptions.take(N=1000):
            if not isinstance(r, InvalidSample) and r.topic_name:
                owner(str(r.participant_key))["readers"].add(r.topic_name)
        time.sleep(0.01)
    others = [dict(key=p["key"], writers=sorted(p["writers"]), readers=sorted(p["readers"]))
              for key, p in seen.items() if key != own]
    say(event="summary", participants=others)


def transform_json(t):
    tr, rot = t.transform.translation, t.transform.rotation
    return dict(parent=t.header.frame_id, child=t.child_frame_id,
                stamp=stamp_ns(t.header.stamp),
                translation=[tr.x, tr.y, tr.z], rotation=[rot.x, rot.y, rot.z, rot.w])


def graph(args, participant, stopper):
    """The robot in the ROS 2 graph, as its subscribers see it: QoS as joint_state_broadcaster,
    robot_state_publisher and tf2_ros's listeners ask for it."""
    ns = graph_namespace(args.namespace)

    def reader(name, kind, qos):
        return DataReader(participant, Topic(participant, ros.dds_topic(ns + "/" + name), kind),
                          qos=qos)

    readers = {
        # Keep-last 10 as RViz asks; --depth N asks for more (the loss measurements).
        "joint_states": reader("joint_states", ros.JointState, ros.reliable(max(10, args.depth))),
        "imu": reader("imu/data", ros.Imu, ros.reliable(10)),
        "tf": reader("tf", ros.TFMessage, ros.reliable(100)),
        "tf_static": reader("tf_static", ros.TFMessage, ros.transient_local(100)),
        "robot_description": reader("robot_description", ros.String, ros.transient_local(1)),
        "diagnostics": reader("diagnostics", ros.DiagnosticArray, ros.reliable(10)),
    }
    for sensor in filter(None, args.wrench.split(",")):
        readers["wrench:" + sensor] = reader(sensor + "_broadcaster/wrench", ros.WrenchStamped,
                                             ros.reliable(10))
    say(event="ready")
    start = time.monotonic()
    counts = {name: 0 for name in readers}
    while not stopper.stopped and (args.seconds <= 0 or time.monotonic() - start < args.seconds):
        for name, reader in readers.items():
            for message in take_all(reader):
                counts[name] += 1
                if counts[name] > args.max:
                    continue
                if name == "joint_states":
                    say(event=name, stamp=stamp_ns(message.header.stamp),
                        frame_id=message.header.frame_id, name=list(message.name),
                        position=as_json(message.position), velocity=as_json(message.velocity),
                        effort=as_json(message.effort))
                elif name == "robot_description":
                    say(event=name, data=message.data)
                elif name == "imu":
                    o, w, a = (message.orientation, message.angular_velocity,
                               message.linear_acceleration)
                    say(event=name, stamp=stamp_ns(message.header.stamp),
                        frame_id=message.header.frame_id,
                        orientation=as_json([o.x, o.y, o.z, o.w]),
                        angular_velocity=as_json([w.x, w.y, w.z]),
                        linear_acceleration=as_json([a.x, a.y, a.z]),
                        covariance=as_json(list(message.orientation_covariance)
                                           + list(message.angular_velocity_covariance)
                                           + list(message.linear_acceleration_covariance)))
                elif name.startswith("wrench:"):
                    f, t = message.wrench.force, message.wrench.torque
                    say(event="wrench", sensor=name.split(":", 1)[1],
                        stamp=stamp_ns(message.header.stamp),
                        frame_id=message.header.frame_id,
                        force=as_json([f.x, f.y, f.z]), torque=as_json([t.x, t.y, t.z]))
                elif name == "diagnostics":
                    say(event=name, stamp=stamp_ns(message.header.stamp),
                        status=[dict(level=int(s.level), name=s.name, message=s.message,
                                     hardware_id=s.hardware_id,
                                     values={kv.key: kv.value for kv in s.values})
                                for s in message.status])
                else:
                    say(event=name, transforms=[transform_json(t) for t in message.transforms])
        time.sleep(0.002)
    say(event="summary", **counts)


def sensors(args, participant, stopper):
    values = json.load(sys.stdin)
    wrench = DataWriter(participant, Topic(participant, ros.dds_topic(args.wrench), ros.WrenchStamped),
                        qos=ros.sensor_data())
    contact = DataWriter(participant, Topic(participant, ros.dds_topic(args.imu), ros.Bool),
                         qos=ros.sensor_data())
    say(event="ready")
    sent, end = 0, time.monotonic() + args.seconds
    while time.monotonic() < end and not stopper.stopped:
        message = ros.WrenchStamped(header=ros.Header(stamp=stamp_now(), frame_id="foot"))
        message.wrench.force.z = float(values["force_z"])
        message.wrench.torque.y = float(values.get("torque_y", 0.0))
        wrench.write(message)
        contact.write(ros.Bool(data=bool(values["contact"])))
        sent += 1
        time.sleep(1.0 / args.rate)
    say(event="summary", sent=sent)


MODES = {"sim": sim, "echo": echo, "ping": ping, "script": script, "listen": listen,
         "graph": graph, "trajectory": trajectory, "participants": participants,
         "sensors": sensors}


def main():
    args = parse_args(__doc__, list(MODES))
    participant = DomainParticipant(args.domain)
    stopper = Stopper()
    MODES[args.mode](args, participant, stopper)


if __name__ == "__main__":
    main()
