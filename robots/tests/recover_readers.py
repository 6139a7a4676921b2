"""Reads a recording cut short by SIGKILL and the file `robot recover` made of it, with readers
that are not ours: PyPI `mcap` (its streaming reader on the cut file; its indexed reader with
`mcap-ros2-support`'s decoder on the recovered one) and `rosbags`. Prints one JSON object: how
`rosbags` refused the cut file, and the messages each reader decoded, per topic.

Usage: recover_readers.py CUT RECOVERED
"""

import json
import sys
from collections import Counter
from pathlib import Path

from mcap.reader import make_reader
from mcap.records import Channel, Message, Schema
from mcap.stream_reader import StreamReader
from mcap_ros2.decoder import DecoderFactory
from rosbags.highlevel import AnyReader


def streamed(path):
    """The cut file, record by record with CRCs checked, up to where it breaks: every message
    decoded."""
    decoder = DecoderFactory()
    schemas, channels, decoded = {}, {}, Counter()
    stopped = None
    with open(path, "rb") as f:
        try:
            for record in StreamReader(f, skip_magic=False, validate_crcs=True).records:
                if isinstance(record, Schema):
                    schemas[record.id] = record
                elif isinstance(record, Channel):
                    channels[record.id] = record
                elif isinstance(record, Message):
                    channel = channels[record.channel_id]
                    decoder.decoder_for("cdr", schemas[channel.schema_id])(record.data)
                    decoded[channel.topic] += 1
        except Exception as error:  # the cut: the reader's end-of-file
            stopped = type(error).__name__
    return decoded, stopped


def rosbags_refusal(path):
    try:
        with AnyReader([Path(path)]) as reader:
            return f"opened: {reader.message_count} messages"
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def with_mcap(path):
    """Through the summary: every message decoded, and the statistics' count."""
    counts = Counter()
    with open(path, "rb") as f:
        reader = make_reader(f, decoder_factories=[DecoderFactory()])
        summary = reader.get_summary()
        assert summary is not None and summary.statistics is not None
        for _, channel, _, decoded in reader.iter_decoded_messages():
            assert decoded is not None
            counts[channel.topic] += 1
        rosbag2 = [m for m in reader.iter_metadata() if m.name == "rosbag2"]
        assert len(rosbag2) == 1, rosbag2
        info = rosbag2[0].metadata["serialized_metadata"]
    return counts, summary.statistics.message_count, info


def with_rosbags(path):
    counts = Counter()
    with AnyReader([Path(path)]) as reader:
        total = reader.message_count
        for connection, _, raw in reader.messages():
            reader.deserialize(raw, connection.msgtype)
            counts[connection.topic] += 1
    return counts, total


def main():
    cut, recovered = sys.argv[1:3]
    stream, stopped = streamed(cut)
    mcap_counts, statistics, rosbag2 = with_mcap(recovered)
    rosbags_counts, rosbags_total = with_rosbags(recovered)
    print(json.dumps({
        "cut": {"rosbags": rosbags_refusal(cut), "stream": stream, "stream_stopped": stopped},
        "recovered": {
            "mcap": mcap_counts,
            "statistics": statistics,
            "rosbag2": rosbag2,
            "rosbags": rosbags_counts,
            "rosbags_total": rosbags_total,
        },
    }))


if __name__ == "__main__":
    main()
