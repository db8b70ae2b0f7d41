#!/usr/bin/env python3
"""Writes the h5py-made fixtures the Swift tests read (shard-format.md, version 1).

h5py_shard.h5       h5py's defaults: variable-length UTF-8 strings, gzip-compressed
                    images chunked one per image, group_ids and original_sizes present.
h5py_fixed_ascii.h5 fixed-length ASCII strings, no group_ids, uncompressed images.

Run from this folder: python3 make_h5py_shards.py (needs numpy and h5py).
"""
import h5py
import numpy as np

rng = np.random.default_rng(7)
H, W = 32, 16
classes = ["checkbox_unselected", "checkbox_selected", "container", "dialog", "icon",
           "page_control", "picture", "segmented_control", "slider", "text", "text_field",
           "toggle_unselected", "toggle_selected"]
images = rng.integers(0, 256, size=(3, H, W, 3), dtype=np.uint8)
offsets = np.array([0, 2, 2, 5], dtype=np.int64)          # screen 1 has no boxes
boxes = np.array([[1, 2, 10, 12], [0.5, 3.25, 15, 30], [2, 2, 4, 4], [3, 10, 9, 20], [0, 0, 16, 32]], dtype=np.float32)
labels = np.array([9, 4, 12, 2, 6], dtype=np.int32)

with h5py.File("h5py_shard.h5", "w") as f:
    f.attrs["format"] = "screen-shard"
    f.attrs["version"] = 1
    f.attrs["class_names"] = classes
    f.create_dataset("images", data=images, chunks=(1, H, W, 3), compression="gzip")
    f.create_dataset("box_offsets", data=offsets)
    f.create_dataset("boxes", data=boxes)
    f.create_dataset("labels", data=labels)
    f.create_dataset("image_ids", data=["scr-0001", "scr-0002", "écran-3"], dtype=h5py.string_dtype())
    f.create_dataset("group_ids", data=["app-a", "app-a", "app-b"], dtype=h5py.string_dtype())
    f.create_dataset("original_sizes", data=np.array([[160, 320], [16, 32], [48, 96]], dtype=np.int32))

with h5py.File("h5py_fixed_ascii.h5", "w") as f:
    f.attrs["format"] = np.bytes_("screen-shard")
    f.attrs["version"] = np.int32(1)
    f.attrs["class_names"] = np.array([c.encode() for c in classes], dtype="S20")
    f.create_dataset("images", data=images)
    f.create_dataset("box_offsets", data=offsets.astype(np.int32))
    f.create_dataset("boxes", data=boxes.astype(np.float64))
    f.create_dataset("labels", data=labels.astype(np.int64))
    f.create_dataset("image_ids", data=np.array([b"a", b"bb", b"ccc"], dtype="S8"))

# The raw pixels, for the Swift test to compare against.
images.tofile("h5py_images.bin")


# Hostile shards: a few KB each. An empty but valid shard, and two that declare more than any
# reader should allocate (HDF5 reads unwritten storage as the fill value, so the file stays small).
def hostile(name, images, offsets, boxes_shape, ids, **image_options):
    with h5py.File(name, "w") as f:
        f.attrs["format"] = np.bytes_("screen-shard")
        f.attrs["version"] = np.int64(1)
        f.attrs["class_names"] = np.array([c.encode() for c in classes])
        if isinstance(images, tuple):
            f.create_dataset("images", shape=images, dtype="u1", **image_options)
        else:
            f.create_dataset("images", data=images)
        f.create_dataset("box_offsets", data=np.array(offsets, dtype=np.int64))
        f.create_dataset("boxes", shape=boxes_shape, dtype="f4")
        f.create_dataset("labels", shape=boxes_shape[:1], dtype="i4")
        f.create_dataset("image_ids", data=np.array(ids, dtype="S4"))

hostile("zero_screens.h5", (0, 32, 16, 3), [0], (0, 4), [])
hostile("declared_boxes.h5", np.zeros((1, 32, 16, 3), dtype=np.uint8), [0, 2**36], (2**36, 4), [b"a"])
hostile("declared_pixels.h5", (1, 100000, 100000, 3), [0, 0], (0, 4), [b"a"], chunks=(1, 64, 64, 3))
