#!/usr/bin/env python3
"""Reads a Courtside snapshot with nothing but Python and python3-msgpack (Debian's package).

    python3 test/store/read-snapshot.py data/2K27.msgpack columns.overall

A snapshot is two MessagePack values back to back: a header map, then the payload map. Every typed
array in the payload is a map {type, length, pad, data}: `type` is a numpy dtype name, `data` the
elements as bytes, little-endian. This prints the header, the edition and the one array you name
(a dotted path into the payload) as JSON: its type, length, and first elements and sum.
"""
import array
import hashlib
import json
import sys

import msgpack

# numpy dtype name -> the array module's type code of the same size.
TYPE_CODES = {"uint8": "B", "int8": "b", "uint16": "H", "int16": "h", "uint32": "I", "int32": "i", "float32": "f", "float64": "d"}


def read_snapshot(path):
    with open(path, "rb") as f:
        data = f.read()
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(data), 1))
    unpacker.feed(data)
    header = unpacker.unpack()
    payload_start = unpacker.tell()
    if header.get("format") != "courtside-snapshot" or header.get("version") != 3:
        raise SystemExit(f"{path}: not a format-3 Courtside snapshot: {header!r}")
    if hashlib.sha256(data[payload_start:]).hexdigest() != header["sha256"]:
        raise SystemExit(f"{path}: checksum mismatch")
    return header, unpacker.unpack()


def typed_array(value):
    values = array.array(TYPE_CODES[value["type"]], value["data"])
    if sys.byteorder == "big":
        values.byteswap()
    assert len(values) == value["length"]
    return values


def main():
    path, column = sys.argv[1], sys.argv[2]
    header, payload = read_snapshot(path)
    node = payload
    for key in column.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    values = typed_array(node)
    print(json.dumps({
        "header": {key: header[key] for key in ("format", "version", "byteOrder", "length", "sha256")},
        "gameVersion": payload["meta"]["gameVersion"],
        "playerCount": payload["meta"]["playerCount"],
        "column": column,
        "type": node["type"],
        "length": len(values),
        "first": list(values[:10]),
        "sum": sum(values),
    }))


if __name__ == "__main__":
    main()
