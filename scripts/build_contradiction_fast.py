"""Compile the contradiction scanner with mypyc (optional, about three times faster).

``python scripts/build_contradiction_fast.py`` copies ``reviewer/contradiction/scan.py``
as the module ``reviewer.contradiction._scan_fast``, stamps the copy with the SHA-256 of
its sources (:func:`reviewer.contradiction.engine.source_digest`), compiles it with mypyc
(part of mypy, a development dependency; a C compiler is needed) in a scratch directory,
and puts the extension next to ``scan.py``.
:mod:`reviewer.contradiction.engine` uses it only while the stamp matches the sources;
``--remove`` deletes it. The extension is a build product (ignored by git), not source.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reviewer" / "contradiction"
sys.path.insert(0, str(ROOT))


def built() -> list[Path]:
    """The compiled scanner files now in the package."""
    return sorted(PACKAGE.glob("_scan_fast*.so")) + sorted(PACKAGE.glob("_scan_fast*.pyd"))


def build() -> list[Path]:
    """Compile and install the extension; returns the files installed."""
    from reviewer.contradiction.engine import source_digest

    digest = source_digest()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (work / "reviewer").mkdir()
        (work / "reviewer" / "__init__.py").write_text("", encoding="utf-8")
        shutil.copytree(PACKAGE, work / "reviewer" / "contradiction",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        source = (PACKAGE / "scan.py").read_text(encoding="utf-8")
        fast = work / "reviewer" / "contradiction" / "_scan_fast.py"
        fast.write_text(
            source + f'\n\nSOURCE_DIGEST = "{digest}"  # stamped by the build\n',
            encoding="utf-8",
        )
        mypyc = Path(sys.executable).with_name("mypyc")
        command = [str(mypyc) if mypyc.exists() else "mypyc"]
        command.append("reviewer/contradiction/_scan_fast.py")
        subprocess.run(command, cwd=work, check=True, stdout=subprocess.DEVNULL)
        products = list((work / "reviewer" / "contradiction").glob("_scan_fast*.so"))
        products += list((work / "reviewer" / "contradiction").glob("_scan_fast*.pyd"))
        if not products:
            raise SystemExit("mypyc produced no extension")
        for old in built():
            old.unlink()
        # The module and, for a module inside a package, its "__mypyc" runtime library.
        for product in products:
            shutil.copy2(product, PACKAGE / product.name)
        return [PACKAGE / p.name for p in products]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remove", action="store_true", help="delete the compiled scanner")
    args = parser.parse_args()
    if args.remove:
        for path in built():
            path.unlink()
            print(f"removed {path.relative_to(ROOT)}")
        return
    for path in build():
        print(f"built {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
