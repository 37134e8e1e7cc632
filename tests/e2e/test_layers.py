"""One-way layers: every #include "..." line under harness/src, fixtures/, seeders/ and scenarios/
must be an edge that docs/architecture.md's `layers` block allows. A back-edge (stats including
run, gate including store, a scenario's program including a fixture, ...) fails here, naming the
file and line.

Under harness/src an include's first folder is its layer. Under fixtures/, seeders/ and
scenarios/ the include is found as the compiler finds it (beside the file, in the scenario's
folder, under harness/include, harness/src, fixtures/, seeders/ or a seeder's include/) and the
file it names decides its layer: harness/include/perfgate/ is `perfgate` (the SDK), harness/src/X/
is `X`, fixtures/postgres/pg_client.* is `pg_client`, any other fixtures/X/ is `X`, seeders/ is
`seeders`, scenarios/NAME/ is `scenario`. What names no file of the tree is a system or
third-party header. The rule:

- a scenario's program (its files but its tests) includes only `perfgate/`, `seeders/` and its
  own files;
- its tests — tests/, test_* and *_test.* files, the files the build leaves out of the scenario's
  fingerprint — may also include fixtures/ and the load generator (harness/src/load): the
  `tests` line, which adds to the line of the folder a test lives in, wherever a test lives
  under fixtures/, seeders/ or scenarios/;
- fixtures/ and seeders/ include what their own lines name;
- nothing includes another scenario's files, and nothing but a test includes a test.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = ROOT / "harness" / "src"
DOC = ROOT / "docs" / "architecture.md"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/')
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCES = (".cpp", ".hpp", ".h", ".cc", ".c")
OUTSIDE = ("fixtures", "seeders", "scenarios")  # the trees outside harness/src this test reads


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


# --- fixtures/, seeders/, scenarios/ ---------------------------------------------------------


def owner(rel):
    """(layer, component, path inside the component) of a file given relative to the root;
    the component tells one scenario (or fixture) from another."""
    parts = rel.split("/")
    if parts[:3] == ["harness", "include", "perfgate"]:
        return "perfgate", "harness/include/perfgate", "/".join(parts[3:])
    if parts[:2] == ["harness", "src"] and len(parts) > 3:
        return parts[2], "harness/src/" + parts[2], "/".join(parts[3:])
    if parts[:2] == ["fixtures", "postgres"] and len(parts) == 3 and parts[2].startswith("pg_client."):
        return "pg_client", "fixtures/postgres/pg_client", parts[2]
    if parts[0] == "fixtures" and len(parts) > 2:
        return parts[1], "fixtures/" + parts[1], "/".join(parts[2:])
    if parts[0] == "seeders" and len(parts) > 2:
        return "seeders", "seeders", "/".join(parts[1:])
    if parts[0] == "scenarios" and len(parts) > 2:
        return "scenario", "scenarios/" + parts[1], "/".join(parts[2:])
    return "/".join(parts[:2]), "/".join(parts[:2]), "/".join(parts[2:])


def is_test(inside):
    """A test by the build's own measure (cmake/PerfgateScenario.cmake, perfgate_sources_digest):
    under tests/, or named test_* or *_test.*."""
    parts = inside.split("/")
    name = parts[-1]
    return "tests" in parts[:-1] or name.startswith("test_") or re.search(r"_test\.[^/]*$", name) is not None


def include_roots(root):
    roots = [root / "harness" / "include", root / "harness" / "src", root / "fixtures", root / "seeders"]
    return roots + sorted(p for p in (root / "seeders").glob("*/include") if p.is_dir())


def resolve(root, path, name, by_file_name):
    """The file of the tree `#include "name"` in `path` names, as a path relative to root; None for
    a system or third-party header."""
    rel = path.relative_to(root).as_posix().split("/")
    component = root.joinpath(*rel[:2]) if rel[0] == "scenarios" else None
    for base in [path.parent] + ([component] if component else []) + include_roots(root):
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve().relative_to(root.resolve()).as_posix()
    # A bare name found through a library's include directory (a test-support header): the one
    # file of that name in the tree, if it is one.
    found = by_file_name.get(name, []) if "/" not in name else []
    return found[0] if len(found) == 1 else None


def outside_edges(root=ROOT):
    """(file, line number, its layer, whether it is a test, included file, its layer, why it is
    not its own) for every #include "..." under fixtures/, seeders/, scenarios/ naming a file of
    the tree outside the includer's own component, or a test from code that is not one."""
    files = sorted(p for top in OUTSIDE for p in (root / top).rglob("*") if p.suffix in SOURCES and p.is_file())
    by_file_name = {}
    for p in sorted(q for top in ("harness", *OUTSIDE) for q in (root / top).rglob("*") if q.suffix in SOURCES):
        by_file_name.setdefault(p.name, []).append(p.relative_to(root).as_posix())
    for path in files:
        rel = path.relative_to(root).as_posix()
        layer, component, inside = owner(rel)
        test = is_test(inside)
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = QUOTED_INCLUDE.match(line)
            target = m and resolve(root, path, m.group(1), by_file_name)
            if not target:
                continue
            t_layer, t_component, t_inside = owner(target)
            if t_component == component and (test or not is_test(t_inside)):
                continue  # its own files
            yield rel, n, layer, test, target, t_layer, t_component == component


def outside_violations(root=ROOT):
    allowed = allowed_edges()
    bad = []
    for rel, n, layer, test, target, t_layer, same_component in outside_edges(root):
        may = allowed.get(layer, set()) | (allowed.get("tests", set()) if test else set())
        if same_component:
            why = "code that is not a test includes a test"
        elif t_layer == "scenario":
            why = "includes another scenario's file"
        elif t_layer not in may:
            why = f"{'a test of ' if test else ''}{layer} includes {t_layer}"
        else:
            continue
        bad.append(f"{rel}:{n}: {why} ({target})")
    return bad


def test_every_folder_has_a_place_in_the_layers():
    allowed = allowed_edges()
    folders = {p.name for p in SRC.iterdir() if p.is_dir()}
    assert not folders - set(allowed), f"folders of harness/src missing from the layers block: {folders - set(allowed)}"


def test_every_fixture_seeder_and_scenario_has_a_place_in_the_layers():
    allowed = allowed_edges()
    layers = {owner(p.relative_to(ROOT).as_posix())[0]
              for top in OUTSIDE for p in (ROOT / top).rglob("*") if p.suffix in SOURCES}
    assert "tests" in allowed, "the layers block has no `tests` line"
    assert not layers - set(allowed), f"missing from the layers block: {layers - set(allowed)}"


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


def test_fixtures_seeders_and_scenarios_include_only_what_their_layer_allows():
    bad = outside_violations()
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


def test_a_scenario_program_reaching_past_its_layer_would_be_caught(tmp_path):
    # A program including a fixture, the load generator or another scenario is reported; its
    # tests may include the first two, and everyone may include the SDK and the seeders.
    for rel, text in {
        "harness/include/perfgate/sample.hpp": "",
        "harness/src/load/http_load.hpp": "",
        "fixtures/postgres/pg_server.hpp": "",
        "seeders/filecloud/filecloud.hpp": "",
        "scenarios/other/util.hpp": "",
        "scenarios/demo/own.hpp": "",
        "scenarios/demo/main.cpp": '#include "perfgate/sample.hpp"\n#include "filecloud/filecloud.hpp"\n'
        '#include "own.hpp"\n#include "postgres/pg_server.hpp"\n#include "load/http_load.hpp"\n'
        '#include "../other/util.hpp"\n#include <vector>\n#include "not_in_the_tree.h"\n',
        "scenarios/demo/tests/demo_test.cpp": '#include "own.hpp"\n#include "postgres/pg_server.hpp"\n'
        '#include "load/http_load.hpp"\n',
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    bad = outside_violations(tmp_path)
    assert bad == [
        "scenarios/demo/main.cpp:4: scenario includes postgres (fixtures/postgres/pg_server.hpp)",
        "scenarios/demo/main.cpp:5: scenario includes load (harness/src/load/http_load.hpp)",
        "scenarios/demo/main.cpp:6: includes another scenario's file (scenarios/other/util.hpp)",
    ], bad
