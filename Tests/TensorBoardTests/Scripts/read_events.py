"""Reads TensorBoard event files the way TensorBoard does and prints what it found as one JSON line.

Usage: read_events.py RUN SPEC [CUT_RUN]
  RUN      a run folder, read with TensorBoard's EventAccumulator (everything kept) and, record by
           record, with the CRCs checked here too;
  SPEC     a JSON file {"plugin_curves": {tag: {"score_bits": [...], "labels": [...], "num_thresholds": n}}}:
           curves to recompute with the pr_curves plugin's own `summary.pb` (float32 scores as bit patterns);
  CUT_RUN  optionally, a run whose event file was cut short mid-record: the scalar steps still read.
"""
import base64
import glob
import json
import os
import struct
import sys
import types

import numpy as np
from tensorboard.backend.event_processing import event_accumulator
from tensorboard.compat.proto import event_pb2, summary_pb2
from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c
from tensorboard.util import tensor_util


def records(path):
    """The records of a TFRecord file, both CRCs of each checked."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if header_crc != masked_crc32c(header):
            raise ValueError(f"{path}: bad length CRC in the record at byte {pos}")
        body = data[pos + 12:pos + 12 + length]
        (body_crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        if body_crc != masked_crc32c(body):
            raise ValueError(f"{path}: bad data CRC in the record at byte {pos}")
        yield body
        pos += 16 + length


def accumulator(run):
    acc = event_accumulator.EventAccumulator(run, size_guidance={k: 0 for k in event_accumulator.DEFAULT_SIZE_GUIDANCE})
    acc.Reload()
    return acc


def plugin_summary_value(scores, labels, num_thresholds):
    """The pr_curves plugin's numpy `pb`, run as it is; it imports TensorFlow only for protos,
    which TensorBoard's own copies stand in for here."""
    tf = types.ModuleType("tensorflow.compat.v1")
    tf.SummaryMetadata = summary_pb2.SummaryMetadata
    tf.Summary = summary_pb2.Summary
    tf.float32 = np.float32
    tf.make_tensor_proto = tensor_util.make_tensor_proto
    compat = types.ModuleType("tensorflow.compat")
    compat.v1 = tf
    root = types.ModuleType("tensorflow")
    root.compat = compat
    sys.modules.update({"tensorflow": root, "tensorflow.compat": compat, "tensorflow.compat.v1": tf})
    from tensorboard.plugins.pr_curve import summary

    return summary.pb("curve", np.array(labels, dtype=bool), scores, num_thresholds=num_thresholds).value[0]


def main():
    run, spec_path = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    files = sorted(glob.glob(os.path.join(run, "events.out.tfevents.*")))
    events = [event_pb2.Event.FromString(r) for path in files for r in records(path)]
    acc = accumulator(run)
    tags = acc.Tags()
    out = {
        "files": [os.path.basename(p) for p in files],
        "records": len(events),
        "first_event": {"file_version": events[0].file_version, "wall_time": events[0].wall_time},
        "file_version": acc.file_version,
        "tags": {kind: sorted(names) for kind, names in tags.items() if isinstance(names, list) and names},
        "scalars": {t: [[e.step, e.value, e.wall_time] for e in acc.Scalars(t)] for t in tags["scalars"]},
        "images": {t: [{"step": e.step, "width": e.width, "height": e.height,
                        "png": base64.b64encode(e.encoded_image_string).decode()} for e in acc.Images(t)]
                   for t in tags["images"]},
        "tensors": {t: [{"step": e.step, "shape": list(a.shape), "dtype": str(a.dtype), "values": a.tolist()}
                        for e in acc.Tensors(t) for a in [tensor_util.make_ndarray(e.tensor_proto)]]
                    for t in tags["tensors"]},
        "pr_curves_plugin_tags": sorted(acc.PluginTagToContent("pr_curves")),
    }
    comparisons = {}
    for tag, inputs in spec["plugin_curves"].items():
        scores = np.array(inputs["score_bits"], dtype=np.uint32).view(np.float32)
        expected = plugin_summary_value(scores, inputs["labels"], inputs["num_thresholds"])
        theirs = tensor_util.make_ndarray(expected.tensor)
        ours = tensor_util.make_ndarray(acc.Tensors(tag)[-1].tensor_proto)
        comparisons[tag] = {
            "equal": bool(ours.shape == theirs.shape and np.array_equal(ours, theirs)),
            "plugin_values": theirs.tolist(),
            "metadata_content_equal": expected.metadata.plugin_data.content == acc.SummaryMetadata(tag).plugin_data.content,
        }
    out["plugin_comparison"] = comparisons
    if len(sys.argv) > 3:
        cut = accumulator(sys.argv[3])
        out["cut_scalars"] = {t: [e.step for e in cut.Scalars(t)] for t in cut.Tags()["scalars"]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
