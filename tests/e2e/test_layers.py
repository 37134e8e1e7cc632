"""One-way layers: every #include "folder/..." line under harness/src must be an edge that
docs/architecture.md's `layers` block allows. A back-edge (stats including run, gate including
store, ...) fails here, naming the file and line."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "harness" / "src"
DOC = ROOT / "docs" / "architecture.md"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/')


def fenced(name):
    """The lines of the ```name block of docs/architecture.md, comments (#) dropped."""
    text = DOC.read_text()
    m = re.search(r"^```" + name + r"\n(.*?)^```", text, re.S | re.M)
    assert m, f"docs/architecture.md: no ```{name} block"
    return [ln.split("#")[0].strip() for ln in m.group(1).splitlines() if ln.split("#")[0].strip()]


def allowed_edges():
    allowed = {}
    for ln in fenced("layers"):
        left, _, right = ln.partition("->")
        allowed[left.strip()] = set(right.split())
    return allowed


def pending_edges():
    """File-level back-edges still being removed: (file, folder) pairs, each named in the doc."""
    out = set()
    for ln in fenced("layers-pending"):
        left, _, right = ln.partition("->")
        out.add((left.strip(), right.strip()))
    return out


def include_edges(src=SRC):
    """(file relative to harness/src, line number, its folder, the included folder)."""
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        rel = path.relative_to(src).as_posix()
        folder = rel.split("/")[0]
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != folder:
                yield rel, n, folder, m.group(1)


def test_every_folder_has_a_place_in_the_layers():
    allowed = allowed_edges()
    folders = {p.name for p in SRC.iterdir() if p.is_dir()}
    assert not folders - set(allowed), f"folders of harness/src missing from the layers block: {folders - set(allowed)}"


def test_the_layers_themselves_point_one_way():
    # The allowed edges must form no cycle, or "one-way" means nothing.
    allowed = allowed_edges()
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in allowed.get(node, ()):
            assert state.get(nxt) != "open", f"cycle in the layers block: {' -> '.join(path + [nxt])}"
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in allowed:
        if node not in state:
            visit(node, [node])


def test_no_include_crosses_a_layer_the_wrong_way():
    allowed, pending = allowed_edges(), pending_edges()
    bad = [
        f"harness/src/{rel}:{n}: {src} includes {dst}/"
        for rel, n, src, dst in include_edges()
        if dst not in allowed.get(src, set()) and (rel, dst) not in pending
    ]
    assert not bad, "include edges not in docs/architecture.md's layers block:\n" + "\n".join(bad)


def test_pending_back_edges_are_still_there():
    # A pending entry whose include is gone must leave the list, so the list only shrinks.
    actual = {(rel, dst) for rel, _, _, dst in include_edges()}
    stale = sorted(pending_edges() - actual)
    assert not stale, f"layers-pending lists edges the code no longer has; remove them: {stale}"


def test_a_back_edge_would_be_caught(tmp_path):
    # The check itself can fail: a stats file including run/ is reported.
    fake = tmp_path / "src"
    (fake / "stats").mkdir(parents=True)
    (fake / "stats" / "x.cpp").write_text('#include "run/sample.hpp"\n')
    edges = [(src, dst) for _, _, src, dst in include_edges(fake)]
    assert edges == [("stats", "run")]
    assert "run" not in allowed_edges()["stats"]
