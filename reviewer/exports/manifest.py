"""The manifest of an export, and the check that it describes the files beside it.

A dataset or preference export writes its files and then its manifest, renamed last
(``reviewer.atomic.FileSet``). The manifest lists each file with its size and SHA-256
(``"files": [{"name", "bytes", "sha256", "lines"}]``): a process killed between two
renames leaves a manifest that no longer matches, and :func:`verify` (``reviewer
verify-export OUT``) says so instead of letting a trainer read a mix of two exports.

Where it goes: ``OUT.manifest.json`` beside a single file, ``OUT/manifest.json`` in the
folder of a split export. A stream (standard output, a FIFO) has no manifest.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewer.errors import BadInputError, ReviewerError
from reviewer.input_bytes import kind_of, read_text
from reviewer.json_input import (
    beyond_digit_limit,
    json_kind,
    loads,
    number_shown,
    too_many_digits,
)

SUFFIX = ".manifest.json"
MAX_MANIFEST = 16 << 20
"""The largest manifest read: the ones written here list a few files in a kilobyte."""
FOLDER_NAME = "manifest.json"


def manifest_path(out: Path) -> Path:
    """Where the manifest of the single-file export ``out`` goes: ``OUT.manifest.json``."""
    return out.with_name(out.name + SUFFIX)


def file_entry(name: str, size: int, sha256: str, lines: int) -> dict[str, Any]:
    """One file as the manifest lists it."""
    return {"name": name, "bytes": size, "sha256": sha256, "lines": lines}


@dataclass(frozen=True, slots=True)
class Checked:
    """A manifest that matches its files."""

    manifest: Path
    document: dict[str, Any]

    @property
    def lines(self) -> int:
        """Lines in all the files it lists."""
        return sum(int(f["lines"]) for f in self.document.get("files", []))


def find_manifest(path: Path) -> Path:
    """The manifest of ``path``: an export file, a split export's folder or a manifest."""
    if path.is_dir():
        return path / FOLDER_NAME
    if path.name.endswith(SUFFIX) or path.name == FOLDER_NAME:
        return path
    return manifest_path(path)


class NotRegular(Exception):
    """A listed member that is not a regular file; its ``args[0]`` says what it is."""


def _sha256(path: Path, expected: int) -> tuple[int, str]:
    """Size and SHA-256 of ``path``, reading at most one byte more than ``expected``: a
    listed file made a link to /dev/zero was read for ever (the third hostile pass), and
    a file longer than listed does not match however it goes on."""
    digest = hashlib.sha256()
    size = 0
    # Opened without waiting, then looked at: a FIFO put in a member's place waited for
    # a writer for ever (seventh hostile pass H3); a device or a folder is no member.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        kind = kind_of(os.fstat(fd))
    except OSError:
        os.close(fd)
        raise
    if kind is not None:  # a link to /proc/kmsg waited for ever (fifteenth pass, P15-11)
        os.close(fd)
        raise NotRegular(kind)
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as fh:
        while size <= expected and (block := fh.read(min(1 << 20, expected + 1 - size))):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


NOT_OURS = "not a manifest this tool wrote; export again"


def _names(manifest: Path, files: list[dict[str, Any]]) -> list[str]:
    """The names of the files the manifest lists, each checked: a string naming a file
    beside the manifest, with a line count (a whole number, at most its bytes: each line
    holds one byte at least). ReviewerError naming the first entry that is not so."""
    names: list[str] = []
    for number, entry in enumerate(files, 1):
        name = entry.get("name")
        if not isinstance(name, str):  # "None" was looked for beside it (ninth pass M3)
            raise ReviewerError(f"{manifest}: file entry {number} has a name that is not "
                                f"a string ({json_kind(name)}): {NOT_OURS}")
        # An export lists the files beside its manifest, by name; one that points
        # elsewhere (../../etc/hostname) or leaves out the file asked about does not
        # describe it. No file name holds a NUL (open() raised ValueError, ninth pass T7).
        if Path(name).name != name or name in ("", ".", "..") or "\x00" in name:
            raise ReviewerError(f"{manifest}: lists {name!r}, not a file beside it: "
                                f"{NOT_OURS}")
        lines, size = entry.get("lines"), entry.get("bytes")
        if (isinstance(lines, bool) or not isinstance(lines, int) or lines < 0
                or (isinstance(size, int) and lines > size)):
            found = (number_shown(lines) if isinstance(lines, int | float)
                     and not isinstance(lines, bool) else json_kind(lines))
            raise ReviewerError(f"{manifest}: file entry {number} ({name}) has a line count "
                                f"that is not a whole number of at most its bytes ({found}): "
                                f"{NOT_OURS}")
        names.append(name)
    return names


def verify(path: Path) -> Checked:
    """Check that every file the manifest of ``path`` lists is the one it describes.

    ReviewerError (one line) when a file is missing, or its size or checksum differs:
    the files are not the export the manifest describes (an interrupted export, a file
    edited or copied over since).
    """
    manifest = find_manifest(path)
    if not manifest.exists():
        raise BadInputError(f"{manifest}: no manifest (not an export, or a stream)")
    # Bounded, a device refused: a manifest made a link to /dev/zero was read until
    # memory ran out (fourth hostile pass, MEM).
    text = read_text(manifest, MAX_MANIFEST, "a manifest")
    try:
        document = loads(text)
    except (ValueError, RecursionError) as exc:
        if beyond_digit_limit(exc):  # not Python's advice (ninth hostile pass M3)
            reason = f"it holds {too_many_digits()}"
        else:
            reason = str(exc).splitlines()[0][:200] if str(exc) else repr(exc)
        raise ReviewerError(f"{manifest}: not a readable manifest ({reason})") from None
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, list) or not files or not all(isinstance(e, dict) for e in files):
        raise ReviewerError(f"{manifest}: lists no file with its checksum (written by an "
                            "older reviewer? export again)")
    names = _names(manifest, files)
    if manifest != path and not path.is_dir() and path.name not in names:
        raise ReviewerError(f"{manifest} does not list {path.name}: it does not describe "
                            "this file; export again")
    for name, entry in zip(names, files, strict=True):
        target = manifest.parent / name
        listed = entry.get("bytes")
        expected = listed if isinstance(listed, int) and not isinstance(listed, bool) \
            and listed >= 0 else 0
        try:
            size, digest = _sha256(target, expected)
        except NotRegular as exc:
            raise ReviewerError(f"{target}: listed by {manifest.name} but it is {exc}, not "
                                "a regular file: export again") from None
        except OSError as exc:
            raise ReviewerError(f"{target}: listed by {manifest.name} but cannot be read "
                                f"({exc.strerror or exc}); export again") from None
        if size != entry.get("bytes") or digest != entry.get("sha256"):
            raise ReviewerError(f"{target} does not match {manifest.name} (an export was "
                                "interrupted, or the file changed since): export again")
    return Checked(manifest, document)
