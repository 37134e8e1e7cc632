"""Two commands writing one out folder (issue 41): the second fails at once (exit 2) naming the
folder and the pid of the first, which goes on. The first is a real `perfgate ab` whose
commands read a FIFO nobody writes yet, so it holds the folder for as long as the test needs,
without a sleep; the test waits on the lock file's holder line, then lets it finish."""
import os
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import PERFGATE  # noqa: E402

FEW = ("--runs", "2", "--warmup", "0", "--metric", "wall_ms")


def wait_for(predicate, what, seconds=60):
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert predicate(), f"timed out waiting for {what}"


def test_a_second_command_on_the_same_out_folder_is_refused(perfgate, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = tmp_path / "perfgate-out"
    first = subprocess.Popen([str(PERFGATE), "ab", f"cat {fifo}", f"cat {fifo}", *FEW, "--out", str(out), "--quiet"],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lock = out / ".perfgate-lock"
        wait_for(lambda: lock.exists() and lock.read_text().startswith(f"pid {first.pid} "), "the first's lock")
        second = perfgate("ab", "true", "true", *FEW, "--out", out, cwd=tmp_path)
        assert second.returncode == 2, second.stdout + second.stderr
        assert second.stderr.startswith(f"perfgate: the out folder {out} is in use by pid {first.pid} on "), second.stderr
        bisect = perfgate("bisect", "--good", "HEAD~1", "--build", "true", "--out", out, "--", "true", cwd=tmp_path)
        assert bisect.returncode == 2 and f"the out folder {out} is in use" in bisect.stderr, bisect.stderr
        # calibrate and parity write out folders too, and wait their turn the same way.
        calibrate = perfgate("calibrate", "--budget", "1", "--out", out, cwd=tmp_path)
        assert calibrate.returncode == 2 and f"the out folder {out} is in use" in calibrate.stderr, calibrate.stderr
        requests = tmp_path / "requests.txt"
        requests.write_text("/a\n")
        parity = perfgate("parity", "http://127.0.0.1:1", "http://127.0.0.1:2", "--requests", requests,
                          "--out", out, cwd=tmp_path)
        assert parity.returncode == 2 and f"the out folder {out} is in use" in parity.stderr, parity.stderr
        # Elsewhere nothing stops it.
        apart = perfgate("ab", "true", "true", *FEW, "--out", tmp_path / "other", "--quiet", cwd=tmp_path)
        assert apart.returncode == 0, apart.stdout + apart.stderr
    finally:
        # Every read of the FIFO gets an empty input: each sample, digest run included, is fed
        # as it comes until the first has finished.
        deadline = time.monotonic() + 120
        while first.poll() is None and time.monotonic() < deadline:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.close(fd)
            except OSError:
                time.sleep(0.01)
        if first.poll() is None:
            first.kill()
        first.wait()
    assert first.returncode == 0, first.stdout.read() + first.stderr.read()
    again = perfgate("ab", "true", "true", *FEW, "--out", out, "--quiet", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
