"""Compile the hot paths with mypyc (optional: the pure-Python modules give the same results).

``python scripts/build_compiled.py [contradiction] [exports]`` (both by default):

* ``contradiction``: ``reviewer/contradiction/scan.py`` copied as the module
  ``reviewer.contradiction._scan_fast`` (about three times faster;
  ``reviewer.contradiction.engine``);
* ``exports``: ``json_string``, ``walk``, ``dataset`` and ``preference`` of
  ``reviewer/exports/`` copied into ``reviewer.exports._fast``, their imports of each
  other pointed at the copies, compiled as one group (``reviewer.exports.compiled``).

Each copy is stamped with the SHA-256 of its sources (``SOURCE_DIGEST``); the app uses a
copy only while the stamp matches (``reviewer.compiled``). The work is done in a scratch
directory holding a copy of the source tree (mypyc type-checks what the modules import),
and only the extensions are put into the package. mypyc is part of mypy, a development
dependency, and needs a C compiler. The extensions are build products, ignored by git.
``--remove`` deletes them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SOURCES = ("reviewer", "models")  # copied into the scratch directory for the type check
EXTENSIONS = ("*.so", "*.pyd")

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify
setup(name="compiled", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify({paths!r}, group_name={group!r}, opt_level="3"))
"""


@dataclass(frozen=True)
class Target:
    """One compiled group: its copies, where they go, and the stamp they carry."""

    name: str
    package: str  # where the extensions go, as a path under ROOT
    copies: dict[str, str]  # the copy's path under ROOT -> the source it is made from
    group: str  # mypyc's group: names its shared library, inside ``package``
    renames: dict[str, str]  # module names to point at their copies

    def digest(self) -> str:
        if self.name == "contradiction":
            from reviewer.contradiction.engine import source_digest
        else:
            from reviewer.exports.compiled import source_digest
        return source_digest()

    def built(self) -> list[Path]:
        """The extensions of this target now in the package."""
        folder = ROOT / self.package
        stems = [Path(c).stem for c in self.copies] + [self.group.rsplit(".", 1)[-1]]
        return sorted(p for pattern in EXTENSIONS for p in folder.glob(pattern)
                      if p.name.split(".")[0].removesuffix("__mypyc") in stems)


def _exports() -> Target:
    from reviewer.exports.compiled import FAST_PACKAGE, MODULES

    return Target(
        "exports", FAST_PACKAGE.replace(".", "/"),
        {f"reviewer/exports/_fast/{m}.py": f"reviewer/exports/{m}.py" for m in MODULES},
        f"{FAST_PACKAGE}.exports",
        {f"reviewer.exports.{m}": f"{FAST_PACKAGE}.{m}" for m in MODULES})


TARGETS = {
    "contradiction": lambda: Target(
        "contradiction", "reviewer/contradiction",
        {"reviewer/contradiction/_scan_fast.py": "reviewer/contradiction/scan.py"},
        "reviewer.contradiction._scan_fast", {}),
    "exports": _exports,
}


def _copy(target: Target, work: Path, digest: str) -> None:
    """Write each copy into ``work``: its imports of the group renamed, then stamped."""
    for copy, source in target.copies.items():
        text = (ROOT / source).read_text(encoding="utf-8")
        for old, new in target.renames.items():
            text = re.sub(rf"\bfrom {re.escape(old)} import\b", f"from {new} import", text)
        stamp = f'\n\nSOURCE_DIGEST = "{digest}"  # stamped by scripts/build_compiled.py\n'
        (work / copy).write_text(text + stamp, encoding="utf-8")


def build(target: Target) -> list[Path]:
    """Compile ``target`` and put its extensions into the package; returns them."""
    digest = target.digest()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for top in SOURCES:
            shutil.copytree(ROOT / top, work / top, ignore=shutil.ignore_patterns(
                "__pycache__", *EXTENSIONS))
        _copy(target, work, digest)
        (work / "setup.py").write_text(
            SETUP.format(paths=list(target.copies), group=target.group), encoding="utf-8")
        subprocess.run([sys.executable, "setup.py"], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        products = [p for pattern in EXTENSIONS for p in (work / target.package).glob(pattern)]
        if not products:
            raise SystemExit(f"mypyc produced no extension for {target.name}")
        for old in target.built():
            old.unlink()
        for product in products:
            shutil.copy2(product, ROOT / target.package / product.name)
    return target.built()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"what to compile: {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--remove", action="store_true", help="delete the compiled copies")
    args = parser.parse_args()
    unknown = sorted(set(args.targets) - set(TARGETS))
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)} (use {', '.join(TARGETS)})")
    for name in args.targets or TARGETS:
        target = TARGETS[name]()
        if args.remove:
            for path in target.built():
                path.unlink()
                print(f"removed {path.relative_to(ROOT)}")
            continue
        for path in build(target):
            print(f"built {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
