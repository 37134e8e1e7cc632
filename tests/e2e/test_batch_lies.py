"""Issue 12's named batch lies exit 3 through the CLI, for the reason the digest now covers:
photos_timeline without the metadata join (width/height/camera NULL), keyset_listing with
NULL AS size, auth_herd answering another user's id on a warm hit, and (issue 28) accepting a
wrong password of a cached user. `perfgate lies` runs each
as AFTER + its --lie against BEFORE at the quick profile (test_bundled_lies.py checks that
every declared lie is caught; this one checks how these three are)."""
import json


def test_named_batch_lies_exit_3_naming_what_differs(perfgate, tmp_path):
    out = tmp_path / "lies.json"
    r = perfgate("lies", "photos_timeline", "keyset_listing", "auth_herd", "--json", out, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = {(x["scenario"], x["lie"]): x for x in json.loads(out.read_text())["lies"]}
    photos = rows[("photos_timeline", "no-metadata-join")]
    assert photos["caught"] and photos["exit_code"] == 3, photos
    assert "first differing line 1" in photos["how"], photos  # the very first row: its metadata columns
    keyset = rows[("keyset_listing", "null-size")]
    assert keyset["caught"] and keyset["exit_code"] == 3, keyset
    assert "T4:file" in keyset["how"], keyset  # a file row differs (its size), not a folder row
    auth = rows[("auth_herd", "one-slot-cache")]
    assert auth["caught"] and auth["exit_code"] == 3, auth
    assert "answered user_id=" in auth["how"] and "expected user_id=" in auth["how"], auth  # another user's id
    key = rows[("auth_herd", "key-by-user")]  # issue 28: a cached user with a wrong password
    assert key["caught"] and "'probe wrong password' answered user_id=" in key["how"], key
