#!/usr/bin/env python3
"""Extracts the uncompressed ELF kernel from a bzImage, if it can boot through PVH.

Usage: lab/extract_vmlinux.py BZIMAGE OUT

qemu boots an ELF vmlinux with a Xen PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY) directly,
which skips the kernel's own decompressor; under TCG that saves about half of the boot time.
Exit status 0 when OUT was written, 1 (with a reason) when the bzImage cannot be used so.
"""
import gzip
import lzma
import struct
import sys

XEN_ELFNOTE_PHYS32_ENTRY = 18
PT_NOTE = 4


def decompress(data):
    """Yields candidate payloads found after the known compression magics."""
    i = data.find(b"\xfd7zXZ\x00")
    if i >= 0:
        try:
            yield lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[i:])
        except lzma.LZMAError:
            pass
    i = data.find(b"\x1f\x8b\x08\x00")
    if i >= 0:
        try:
            yield gzip.GzipFile(fileobj=__import__("io").BytesIO(data[i:])).read()
        except (OSError, EOFError):
            pass


def has_pvh_note(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for k in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", elf, phoff + k * phentsize)
        if p_type != PT_NOTE:
            continue
        off, end = p_offset, p_offset + p_filesz
        while off + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, off)
            name = elf[off + 12:off + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and ntype == XEN_ELFNOTE_PHYS32_ENTRY:
                return True
            off += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    data = open(argv[0], "rb").read()
    for elf in decompress(data):
        if has_pvh_note(elf):
            with open(argv[1] + ".tmp", "wb") as f:
                f.write(elf)
            __import__("os").replace(argv[1] + ".tmp", argv[1])
            return 0
    print(f"extract_vmlinux: {argv[0]} holds no xz/gzip ELF kernel with a PVH entry note", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
