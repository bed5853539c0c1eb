"""``catrules lsp`` never dies on a file: every game, example and test game of the repository, and
files damaged at random (seeded: cut short, lines deleted, lines swapped), each get their
diagnostics published, and the server still answers hover, completion and symbols after them."""

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import ROOT, Client  # noqa: E402
from catrules.authoring.lsp import analyse  # noqa: E402

FILES = sorted(p for d in ("games", "docs/examples", "tests/games", "tests/data")
               for p in (ROOT / d).rglob("*.cat"))
MUTANTS = 40


def _mutate(text: str, rng: random.Random) -> str:
    """A damaged copy of ``text``: cut at a random point, or random lines deleted or swapped."""
    how = rng.randrange(3)
    if how == 0:
        return text[:rng.randrange(len(text) + 1)]
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if how == 1 and len(lines) > 1:
            del lines[i]
        else:
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _still_answers(client, uri, text):
    """The server answers about ``uri`` (it did not die on it)."""
    line = min(3, max(text.count("\n") - 1, 0))
    assert isinstance(client.at("textDocument/completion", uri, line, 0), (dict, list))
    client.at("textDocument/hover", uri, line, 2)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert symbols is None or isinstance(symbols, list)


@pytest.fixture(scope="module")
def client():
    c = Client().start()
    yield c
    c.close()
    assert c.proc.returncode == 0


def test_the_repository_has_many_game_files():
    assert len(FILES) >= 60 and any(p.name == "flapcat.cat" for p in FILES)


def test_every_file_of_the_repository_gets_its_diagnostics(client):
    for i, path in enumerate(FILES):
        text = path.read_text(encoding="utf-8")
        found = client.open(path.as_uri(), text, version=1)
        assert isinstance(found, list), path
        expected, _ = analyse(text, str(path))          # what `catrules check` finds, in this process
        assert [d["message"].split("\n")[0] for d in found] == [d.message for d in expected], path
        _still_answers(client, path.as_uri(), text)
        actions = [i for i, line in enumerate(text.split("\n")) if line.startswith("action ")]
        if actions and not expected:        # a file that checks: its actions printed from the tree
            value = client.at("textDocument/hover", path.as_uri(), actions[-1], 8)["contents"]["value"]
            assert value.startswith("*action*") and "\n    " in value, (path, value)
        client.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})


def test_damaged_files_get_diagnostics_and_the_server_lives_on(client):
    rng = random.Random(28)
    errors = 0
    for n in range(MUTANTS):
        path = rng.choice(FILES)
        text = _mutate(path.read_text(encoding="utf-8"), rng)
        uri = path.with_name(f"mutant{n}-{path.name}").as_uri()     # beside it: `extends` still finds its base
        found = client.open(uri, text, version=1)
        errors += any(d["severity"] == 1 for d in found)
        for d in found:
            assert d["message"] and "Traceback" not in d["message"] and "Error:" not in d["message"]
        _still_answers(client, uri, text)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert errors >= MUTANTS // 4           # the damage is real: many of them do not check


def test_a_file_with_errors_also_gets_its_warnings():
    # the warning that an inner `it` hides the outer one is what explains the error beside it
    text = (ROOT / "docs" / "examples" / "minimal.cat").read_text().replace(
        "points = sum(hand, value)", "points = count(range(1, 5) where any(hand where value == it))")
    found, checked = analyse(text, "t.cat")
    assert checked is None
    assert [(d.severity, d.message) for d in found] == [
        ("error", "this compares a number with a card, so it is always false"),
        ("warning", "this `it` hides the `it` of the list around it")]
