"""Reads a `robot run --record` file with readers that are not ours: PyPI `mcap` with
`mcap-ros2-support`, and `rosbags`. Every message must decode, each per-cycle topic must have one
message per cycle, and the values must be the run's own (EXPECTED, written by the Rust test).

Usage: mcap_readers.py RECORDING EXPECTED.json CUT_RECORDING
"""

import json
import math
import sys
from collections import Counter
from pathlib import Path

from mcap.reader import make_reader
from mcap.stream_reader import StreamReader
from mcap.records import Channel, Message, Schema
from mcap_ros2.decoder import DecoderFactory
from rosbags.highlevel import AnyReader

PER_CYCLE = ("/joint_states", "/joint_commands", "/tf", "/imu/data")


def same(got, want):
    """Floats equal exactly; None (JSON for NaN) matches NaN."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert (w is None and math.isnan(g)) or g == w, (got, want)


def check_values(topic, index, message, expected):
    if topic == "/joint_states":
        same(list(message.position), expected["positions"][index])
    elif topic == "/joint_commands":
        values = [v for joint in message.interface_values for v in joint.values]
        same(values, expected["commands"][index])
    elif topic == "/diagnostics":
        # The loop, then the component, both active, the cycles it was taken at.
        loop, component = message.status
        assert loop.name.endswith(": control loop") and loop.level == 0, loop
        values = {kv.key: kv.value for kv in loop.values}
        assert values["lifecycle"] == "active", values
        assert int(values["cycles"]) == 1 + index * expected["diagnostics_every"], values
        assert component.message == "active", component


def with_mcap(path, expected):
    counts = Counter()
    with open(path, "rb") as f:
        reader = make_reader(f, decoder_factories=[DecoderFactory()])
        header = reader.get_header()
        assert header.profile == "ros2", header
        summary = reader.get_summary()
        for schema in summary.schemas.values():
            assert schema.encoding == "ros2msg", schema
        for channel in summary.channels.values():
            assert channel.message_encoding == "cdr", channel
            assert channel.metadata["offered_qos_profiles"].startswith("- history: keep_last"), channel
            assert channel.metadata["topic_type_hash"].startswith("RIHS01_"), channel
        rosbag2 = [m for m in reader.iter_metadata() if m.name == "rosbag2"]
        assert len(rosbag2) == 1, rosbag2
        info = rosbag2[0].metadata["serialized_metadata"]
        assert "version: 9\nstorage_identifier: mcap\n" in info, info
        once = 2 + expected["diagnostics"]  # /tf_static, /robot_description, /diagnostics
        assert f"message_count: {len(PER_CYCLE) * expected['cycles'] + once}\n" in info, info
        for _, channel, message, decoded in reader.iter_decoded_messages():
            check_values(channel.topic, counts[channel.topic], decoded, expected)
            counts[channel.topic] += 1
    return counts


def with_rosbags(path, expected):
    counts = Counter()
    with AnyReader([Path(path)]) as reader:
        for connection, _, raw in reader.messages():
            decoded = reader.deserialize(raw, connection.msgtype)
            check_values(connection.topic, counts[connection.topic], decoded, expected)
            counts[connection.topic] += 1
    return counts


def with_stream_reader(path):
    """A file cut short: the streaming reader, record by record, up to where it breaks."""
    decoder = DecoderFactory()
    schemas, channels, decoded = {}, {}, Counter()
    with open(path, "rb") as f:
        try:
            for record in StreamReader(f, skip_magic=False, validate_crcs=True).records:
                if isinstance(record, Schema):
                    schemas[record.id] = record
                elif isinstance(record, Channel):
                    channels[record.id] = record
                elif isinstance(record, Message):
                    channel = channels[record.channel_id]
                    decode = decoder.decoder_for("cdr", schemas[channel.schema_id])
                    decode(record.data)
                    decoded[channel.topic] += 1
        except Exception as error:  # the cut: the reader's end-of-file or a bad record
            print(f"cut file: stopped at {type(error).__name__}")
    return decoded


def main():
    path, expected_path, cut = sys.argv[1:4]
    expected = json.loads(Path(expected_path).read_text())
    cycles = expected["cycles"]
    want = {topic: cycles for topic in PER_CYCLE} | {"/tf_static": 1, "/robot_description": 1,
                                                     "/diagnostics": expected["diagnostics"]}
    for name, read in (("mcap", with_mcap), ("rosbags", with_rosbags)):
        counts = read(path, expected)
        assert dict(counts) == want, (name, counts, want)
        print(f"{name}: {sum(counts.values())} messages decoded, {cycles} cycles, values equal")
    decoded = with_stream_reader(cut)
    assert 0 < decoded["/joint_states"] < cycles, decoded
    # Every complete chunk, and what this lenient reader gets out of the one cut through.
    assert abs(decoded["/joint_states"] - decoded["/tf"]) <= 1, decoded
    print(f"cut file: {decoded['/joint_states']} complete cycles decoded")


if __name__ == "__main__":
    main()
