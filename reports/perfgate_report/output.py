"""Writing a report so that it is either whole or absent.

Everything is rendered into a temporary directory on the same file system as the destination,
then moved into place: the whole directory in one rename when the destination does not exist
yet, else file by file with the markdown file last (so a report.md that exists always refers
to plots that exist). The temporary directory is removed whatever happens.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def staged(out_dir: Path, main_file: str, owned: str | None = None) -> Iterator[Path]:
    """Yields a temporary directory to write into; on a normal exit moves its content to
    out_dir, `main_file` last. On an exception nothing is moved. `owned` is a glob (relative
    to out_dir) of files an earlier run of the same kind wrote: those not written this time
    are removed after main_file is in place, so stale plots do not pile up."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(f"{out_dir}: exists and is not a directory")
    fresh = not out_dir.exists()
    host = out_dir.parent if fresh else out_dir
    host.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".perfgate-report-", dir=host))
    try:
        yield tmp
        if fresh:
            os.chmod(tmp, 0o777 & ~_umask())
            os.rename(tmp, out_dir)
            return
        files = sorted(p for p in tmp.rglob("*") if p.is_file() and p.name != main_file)
        written = set()
        for src in files:
            dst = out_dir / src.relative_to(tmp)
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, dst)
            written.add(dst)
        if (tmp / main_file).exists():
            os.replace(tmp / main_file, out_dir / main_file)
        if owned:
            for old in out_dir.glob(owned):
                if old.is_file() and old not in written:
                    old.unlink()
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
