#!/usr/bin/env python3
"""Fetches only the headers (torch/include/**) of a PyTorch release's wheel.

A torch wheel is about 1 GB; its headers are a few MB of it. A wheel is a
zip file, so this reads the zip's central directory with HTTP Range
requests, then only the byte ranges of the torch/include/ members (merged
into a few requests), inflates them, and checks every one against the
sha256 the wheel's own RECORD lists (the whole file's sha256 from PyPI
cannot be checked without downloading all of it; RECORD catches a
truncated or corrupted transfer). The result is cached:

  <cache>/<version>/torch/include/...   and a stamp naming the wheel's sha256

  pytorch_release_headers.py --version 2.9.0 --cache build/dev/abi_checks/pytorch_releases
  pytorch_release_headers.py --version 2.9.0 --cache ... --full-download
  pytorch_release_headers.py --version 2.9.0 --cache ... --wheel-file torch-2.9.0-....whl

The wheel: cp311, manylinux, x86_64, found through PyPI's JSON API
(https://pypi.org/pypi/torch/<version>/json, else the project's JSON).
When the server ignores Range requests, the script says so and stops,
unless --full-download is given: then it downloads the whole wheel (and
checks the PyPI sha256 too). Standard library only.
"""
import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import struct
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib

PYPI = "https://pypi.org/pypi/torch"
WHEEL_TAG = ("cp311-cp311-manylinux", "_x86_64.whl")
INCLUDE = "torch/include/"
# Members closer than this are fetched in one request (the gap is read and
# dropped): fewer round trips for a few wasted bytes.
MERGE_GAP = 1 << 20
TIMEOUT = 120


class FetchError(Exception):
    pass


def get(url, byte_range=None):
    """GET url (optionally bytes [start, end], inclusive) -> (status, bytes)."""
    req = urllib.request.Request(url, headers={"User-Agent": "stabletorch-abi-checks"})
    if byte_range is not None:
        req.add_header("Range", "bytes=%d-%d" % byte_range)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            if byte_range is not None and resp.status != 206:
                # Do not read a whole wheel by accident.
                raise FetchError("%s: the server ignored the Range request (HTTP %d)"
                                 % (url, resp.status))
            return resp.status, resp.read()
    except urllib.error.URLError as e:
        raise FetchError("%s: %s" % (url, e))


def find_wheel(version):
    """(url, sha256, size, filename) of the cp311 manylinux x86_64 wheel."""
    files = None
    base = "%s/%s/json" % (PYPI, version)
    try:
        _, body = get(base)
        files = json.loads(body)["urls"]
    except FetchError:
        # Some PyPI mirrors serve only the project's JSON.
        base = "%s/json" % PYPI
        _, body = get(base)
        releases = json.loads(body).get("releases", {})
        if version not in releases:
            raise FetchError("PyPI knows no torch %s" % version)
        files = releases[version]
    for f in files:
        name = f["filename"]
        if name.startswith("torch-") and WHEEL_TAG[0] in name and name.endswith(WHEEL_TAG[1]):
            return (urllib.parse.urljoin(base, f["url"]), f["digests"]["sha256"], f["size"], name)
    raise FetchError("torch %s has no %s*%s wheel on PyPI" % (version, WHEEL_TAG[0], WHEEL_TAG[1]))


class RangeReader:
    """Reads byte ranges of a remote file (or of a local copy)."""

    def __init__(self, url, size, local=None):
        self.url, self.size, self.local = url, size, local
        self.requests = 0
        self.bytes = 0

    def read(self, offset, length):
        if offset < 0 or length < 0 or offset + length > self.size:
            raise FetchError("range %d+%d outside the wheel (%d bytes)" % (offset, length, self.size))
        if length == 0:
            return b""
        if self.local is not None:
            with open(self.local, "rb") as f:
                f.seek(offset)
                return f.read(length)
        _, data = get(self.url, (offset, offset + length - 1))
        self.requests += 1
        self.bytes += len(data)
        if len(data) != length:
            raise FetchError("%s: asked for %d bytes at %d, got %d"
                             % (self.url, length, offset, len(data)))
        return data


def central_directory(reader):
    """[(name, method, compressed size, size, local header offset)] of the zip."""
    tail_len = min(reader.size, 65536 + 22)
    tail = reader.read(reader.size - tail_len, tail_len)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0:
        raise FetchError("no end-of-central-directory record: not a zip file")
    _, _, _, _, count, cd_size, cd_offset, _ = struct.unpack("<4sHHHHIIH", tail[at:at + 22])
    loc = tail.rfind(b"PK\x06\x07", 0, at)
    if loc >= 0:  # zip64: the real numbers are in the zip64 record
        (zip64_offset,) = struct.unpack("<Q", tail[loc + 8:loc + 16])
        rec = reader.read(zip64_offset, 56)
        if rec[:4] != b"PK\x06\x06":
            raise FetchError("bad zip64 end-of-central-directory record")
        count, cd_size, cd_offset = struct.unpack("<QQQ", rec[32:56])
    cd = reader.read(cd_offset, cd_size)
    entries, pos = [], 0
    for _ in range(count):
        if cd[pos:pos + 4] != b"PK\x01\x02":
            raise FetchError("bad central directory entry at %d" % pos)
        (method, csize, usize, nlen, xlen, clen, offset) = struct.unpack(
            "<6xH8xIIHHH8xI", cd[pos + 4:pos + 46])
        name = cd[pos + 46:pos + 46 + nlen].decode("utf-8")
        extra = cd[pos + 46 + nlen:pos + 46 + nlen + xlen]
        if 0xFFFFFFFF in (csize, usize, offset):
            usize, csize, offset = zip64_sizes(extra, usize, csize, offset)
        entries.append((name, method, csize, usize, offset))
        pos += 46 + nlen + xlen + clen
    return entries


def zip64_sizes(extra, usize, csize, offset):
    """Replaces the 0xFFFFFFFF fields from the zip64 extra field, in order."""
    pos = 0
    while pos + 4 <= len(extra):
        tag, size = struct.unpack("<HH", extra[pos:pos + 4])
        if tag == 1:
            values = list(struct.unpack("<%dQ" % (size // 8), extra[pos + 4:pos + 4 + size]))
            if usize == 0xFFFFFFFF:
                usize = values.pop(0)
            if csize == 0xFFFFFFFF:
                csize = values.pop(0)
            if offset == 0xFFFFFFFF:
                offset = values.pop(0)
            return usize, csize, offset
        pos += 4 + size
    raise FetchError("zip64 sizes without a zip64 extra field")


def spans(entries):
    """Groups entries (sorted by offset) into [(start, end, [entries])]."""
    out = []
    for e in sorted(entries, key=lambda e: e[4]):
        # A local header is 30 bytes + name + extra: read a margin for the
        # extra field, whose length only the local header says.
        start, end = e[4], e[4] + 30 + len(e[0].encode()) + 1024 + e[2]
        if out and start - out[-1][1] <= MERGE_GAP:
            out[-1][1] = max(out[-1][1], end)
            out[-1][2].append(e)
        else:
            out.append([start, end, [e]])
    return out


def member_bytes(blob, blob_start, entry):
    name, method, csize, usize, offset = entry
    at = offset - blob_start
    if blob[at:at + 4] != b"PK\x03\x04":
        raise FetchError("%s: bad local header" % name)
    nlen, xlen = struct.unpack("<HH", blob[at + 26:at + 30])
    data_at = at + 30 + nlen + xlen
    raw = blob[data_at:data_at + csize]
    if len(raw) != csize:
        raise FetchError("%s: truncated" % name)
    if method == 0:
        data = raw
    elif method == 8:
        data = zlib.decompressobj(-15).decompress(raw)
    else:
        raise FetchError("%s: compression method %d" % (name, method))
    if len(data) != usize:
        raise FetchError("%s: %d bytes after inflating, expected %d" % (name, len(data), usize))
    return data


def record_hashes(record_text):
    """{path: urlsafe-b64 sha256} from a wheel's RECORD."""
    out = {}
    for line in record_text.splitlines():
        parts = line.rsplit(",", 2)
        if len(parts) == 3 and parts[1].startswith("sha256="):
            out[parts[0]] = parts[1][len("sha256="):]
    return out


def digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def fetch(version, cache, full_download=False, log=print, wheel_file=None):
    if wheel_file:
        url, sha256, size, filename = None, "local", os.path.getsize(wheel_file), \
            os.path.basename(wheel_file)
    else:
        url, sha256, size, filename = find_wheel(version)
    dest = os.path.join(cache, version)
    stamp = os.path.join(dest, ".fetched-" + sha256)
    if os.path.isfile(stamp):
        log("torch %s headers already in %s" % (version, dest))
        return dest
    local = wheel_file
    tmp = None
    if full_download and not wheel_file:
        tmp = tempfile.mkdtemp(prefix="torch-wheel-", dir=cache if os.path.isdir(cache) else None)
        local = os.path.join(tmp, filename)
        log("downloading all of %s (%d MB)" % (filename, size >> 20))
        h = hashlib.sha256()
        req = urllib.request.Request(url, headers={"User-Agent": "stabletorch-abi-checks"})
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp, open(local, "wb") as out:
            while True:
                chunk = resp.read(1 << 20)
                if not chunk:
                    break
                h.update(chunk)
                out.write(chunk)
        if h.hexdigest() != sha256:
            shutil.rmtree(tmp)
            raise FetchError("%s: sha256 %s, PyPI says %s" % (filename, h.hexdigest(), sha256))
    try:
        reader = RangeReader(url, size, local)
        entries = central_directory(reader)
        record_name = "torch-%s.dist-info/RECORD" % version
        wanted = [e for e in entries if e[0].startswith(INCLUDE) and not e[0].endswith("/")]
        record = [e for e in entries if e[0] == record_name]
        if not wanted:
            raise FetchError("%s has no %s members" % (filename, INCLUDE))
        if not record:
            raise FetchError("%s has no %s" % (filename, record_name))
        files = {}
        for start, end, group in spans(wanted + record):
            end = min(end, size)
            blob = reader.read(start, end - start)
            for e in group:
                files[e[0]] = member_bytes(blob, start, e)
        hashes = record_hashes(files.pop(record_name).decode("utf-8"))
        bad = [n for n, data in files.items() if hashes.get(n) != digest(data)]
        unlisted = sorted(n for n in hashes if n.startswith(INCLUDE) and n not in files)
        if bad or unlisted:
            raise FetchError("%s: %d headers do not match the wheel's RECORD (%s), %d listed "
                             "there are missing (%s)" % (filename, len(bad), ", ".join(bad[:5]),
                                                         len(unlisted), ", ".join(unlisted[:5])))
        if os.path.isdir(dest):
            shutil.rmtree(dest)
        for name, data in files.items():
            path = os.path.join(dest, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        with open(stamp, "w") as f:
            f.write("%s\n%s\n" % (filename, url))
        how = ("from the wheel file" if local else
               "with %d range requests (%.1f MB of the %d MB wheel)"
               % (reader.requests, reader.bytes / 1e6, size >> 20))
        log("torch %s: %d headers checked against RECORD, %s, in %s"
            % (version, len(files), how, dest))
        return dest
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", required=True, action="append", help="e.g. 2.9.0 (repeatable)")
    p.add_argument("--cache", required=True, help="folder of the build tree")
    p.add_argument("--full-download", action="store_true",
                   help="download whole wheels (when Range requests do not work)")
    p.add_argument("--wheel-file", help="a wheel already on disk (one --version)")
    args = p.parse_args()
    if args.wheel_file and len(args.version) != 1:
        p.error("--wheel-file takes one --version")
    os.makedirs(args.cache, exist_ok=True)
    try:
        for v in args.version:
            fetch(v, args.cache, args.full_download, wheel_file=args.wheel_file)
    except FetchError as e:
        print("pytorch_release_headers.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
