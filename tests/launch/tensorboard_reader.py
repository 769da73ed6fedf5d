"""An independent reader of TensorBoard event files, for the tests (TensorBoard is not packaged in Debian, and
neither is the protobuf module): plain Python, its own CRC-32C, and a generic protobuf wire-format walker.

    tensorboard_reader.py PATH      PATH: an event file, or a folder whose *tfevents* files are read in name order

Prints one JSON object: {"files": [...], "file_version": "...", "records": N,
"scalars": [{"tag", "step", "wall_time", "value"}, ...]}. Strict on purpose: both CRCs of every record are checked,
every record is decoded to the last byte, and any leftover byte, truncated record, unknown wire type or field DDP
Desk does not write fails with exit code 1 and "broken record" on stderr."""
import json
import math
import os
import struct
import sys


class Broken(Exception):
    pass


def _table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, pos):
    value, shift = 0, 0
    while True:
        if pos >= len(buf):
            raise Broken("varint runs past the end")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift >= 70:
            raise Broken("varint longer than 10 bytes")


def fields(buf):
    """Every (field number, wire type, value) of a message: ints, 8/4 raw bytes, or the bytes of a sub-message."""
    out, pos = [], 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise Broken("field number 0")
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise Broken("unknown wire type %d (field %d)" % (wire, number))
        if pos > len(buf):
            raise Broken("field %d runs past the end of its message" % number)
        out.append((number, wire, value))
    return out


def expect(number, wire, wanted, what):
    if wire != wanted:
        raise Broken("%s (field %d) has wire type %d, not %d" % (what, number, wire, wanted))


def decode_value(buf):
    tag, value = None, None
    for number, wire, v in fields(buf):
        if number == 1:
            expect(number, wire, 2, "Summary.Value.tag")
            tag = v.decode("utf-8")
        elif number == 2:
            expect(number, wire, 5, "Summary.Value.simple_value")
            value = struct.unpack("<f", v)[0]
            if math.isnan(value) or math.isinf(value):
                raise Broken("a non-finite simple_value (DDP Desk never writes one)")
        else:
            raise Broken("Summary.Value field %d is not one DDP Desk writes" % number)
    if tag is None or value is None:
        raise Broken("a Summary.Value without tag or simple_value")
    return tag, value


def decode_event(buf):
    event = {"wall_time": None, "step": 0, "file_version": None, "values": []}
    for number, wire, v in fields(buf):
        if number == 1:
            expect(number, wire, 1, "Event.wall_time")
            event["wall_time"] = struct.unpack("<d", v)[0]
            if not math.isfinite(event["wall_time"]):
                raise Broken("a non-finite wall_time")
        elif number == 2:
            expect(number, wire, 0, "Event.step")
            event["step"] = v - (1 << 64) if v >= 1 << 63 else v
        elif number == 3:
            expect(number, wire, 2, "Event.file_version")
            event["file_version"] = v.decode("utf-8")
        elif number == 5:
            expect(number, wire, 2, "Event.summary")
            for n, w, value in fields(v):
                if n != 1:
                    raise Broken("Summary field %d is not one DDP Desk writes" % n)
                expect(n, w, 2, "Summary.value")
                event["values"].append(decode_value(value))
        else:
            raise Broken("Event field %d is not one DDP Desk writes" % number)
    if event["wall_time"] is None:
        raise Broken("an Event without wall_time")
    return event


def records(data):
    pos = 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise Broken("a record header cut short at byte %d" % pos)
        header = data[pos:pos + 8]
        (size,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if header_crc != masked(header):
            raise Broken("length CRC mismatch at byte %d" % pos)
        start = pos + 12
        if start + size + 4 > len(data):
            raise Broken("a record cut short at byte %d (%d data bytes announced)" % (pos, size))
        body = data[start:start + size]
        (body_crc,) = struct.unpack("<I", data[start + size:start + size + 4])
        if body_crc != masked(body):
            raise Broken("data CRC mismatch at byte %d" % pos)
        yield body
        pos = start + size + 4


def read(path):
    files = [path]
    if os.path.isdir(path):
        files = [os.path.join(path, n) for n in sorted(os.listdir(path)) if "tfevents" in n]
    result = {"files": files, "file_version": None, "records": 0, "scalars": []}
    for name in files:
        with open(name, "rb") as f:
            data = f.read()
        for index, body in enumerate(records(data)):
            event = decode_event(body)
            result["records"] += 1
            if index == 0:
                if event["file_version"] is None or event["values"]:
                    raise Broken("%s: the first record is not the file_version event" % name)
                result["file_version"] = event["file_version"]
            elif event["file_version"] is not None:
                raise Broken("%s: file_version in record %d" % (name, index))
            for tag, value in event["values"]:
                result["scalars"].append(
                    {"tag": tag, "step": event["step"], "wall_time": event["wall_time"], "value": value})
    return result


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: tensorboard_reader.py EVENT_FILE_OR_FOLDER\n")
        return 2
    try:
        result = read(sys.argv[1])
    except Broken as e:
        sys.stderr.write("broken record: %s\n" % e)
        return 1
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write("broken record: %s\n" % e)
        return 1
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
