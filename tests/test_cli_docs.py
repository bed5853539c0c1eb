"""``catrules docs``: the documentation's pages read in the terminal, from files installed with catrules.

The pages are docs/*.rst as plain text; a wheel built from this tree carries them (rendered by the
build, so they cannot drift from docs/), and the command reads them from there.
"""

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from catrules.authoring import docs_text
from catrules.authoring.new import template
from catrules.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.stem for p in DOCS.glob("*.rst"))


def docs(capsys, *argv):
    code = main(["docs", "--no-pager", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def rst_headings(name):
    """The headings of a page, read from its .rst (a line over a line of one repeated mark)."""
    lines = (DOCS / f"{name}.rst").read_text(encoding="utf-8").splitlines()
    return [a for a, b in zip(lines, lines[1:]) if a.strip() and not a.startswith((" ", "..")) and b
            and len(set(b)) == 1 and b[0] in "=-~^" and len(b) >= len(a)]


def test_list_names_every_page_with_its_title(capsys):
    code, out, _ = docs(capsys, "--list")
    assert code == 0
    listed = dict(re.match(r"(\S+)\s+(.*)", line).groups() for line in out.splitlines())
    assert sorted(listed) == PAGES
    for name in PAGES:
        assert listed[name] == re.sub(r"``(.+?)``", r"`\1`", rst_headings(name)[0]), name


@pytest.mark.parametrize("topic,page", [("language", "language"), ("LANGUAGE.rst", "language"),
                                        ("getting", "getting-started"), ("first game", "tutorial")])
def test_a_topic_is_a_name_the_start_of_one_or_words_of_a_title(capsys, topic, page):
    code, out, _ = docs(capsys, topic)
    assert code == 0 and out == docs_text.render(DOCS / f"{page}.rst")


def test_the_language_reference_reads_as_plain_text(capsys):
    code, out, _ = docs(capsys, "language")
    assert code == 0
    for heading in rst_headings("language"):
        assert re.sub(r"``(.+?)``", r"`\1`", heading) in out, heading
    assert "``" not in out and ".. code-block::" not in out and ":doc:`" not in out
    assert ".. literalinclude::" not in out
    # a quoted file is there, as the lines the page quotes
    first = next(line for line in (DOCS / "language.rst").read_text().splitlines() if "literalinclude" in line)
    quoted = (DOCS / first.split("::")[1].strip()).read_text(encoding="utf-8").splitlines()
    assert "    " + next(line for line in quoted if line.strip()) in out.splitlines()


def test_no_topic_is_the_front_page(capsys):
    code, out, _ = docs(capsys)
    assert code == 0 and out.startswith("catrules\n========\n")
    assert "Pages (`catrules docs PAGE`):" in out and "   language" in out.splitlines()


def test_find_prints_the_sections_with_the_words_and_only_those(capsys):
    code, out, _ = docs(capsys, "language", "--find", "up to")
    assert code == 0
    page = docs_text.render(DOCS / "language.rst")
    assert len(out) < len(page) / 3
    sections = out.split("\n\n\n")
    assert len(sections) >= 2
    for section in sections:
        assert re.search(r"up\s+to", section, re.IGNORECASE), section[:200]
        assert section.strip() in page
    # the section that describes it (its paragraph "Up to N cards") is among them
    assert "Choices" in rst_headings("language")
    assert any(s.startswith("Choices\n") and re.search(r"Up to N cards", s) for s in sections)


def test_find_matches_words_across_line_breaks_and_in_any_case(capsys):
    page = (DOCS / "language.rst").read_text(encoding="utf-8")
    broken = re.search(r"\b([a-z]{4,}) *\n *([a-z]{4,})\b", page)       # two words on two lines
    words = f"{broken.group(1).upper()} {broken.group(2)}"
    code, out, _ = docs(capsys, "language", "--find", words)
    assert code == 0 and broken.group(1) in out and broken.group(2) in out


def test_find_without_a_topic_searches_every_page(capsys):
    code, out, _ = docs(capsys, "--find", "ties share")
    assert code == 0
    pages = re.findall(r"^\[catrules docs (\S+)\]$", out, re.M)
    expected = [n for n in PAGES if re.search(r"ties\s+share", docs_text.render(DOCS / f"{n}.rst"), re.I)]
    assert {"language", "meow"} <= set(expected)       # the words of the page and of the games it quotes
    assert pages and sorted(set(pages)) == sorted(expected)


@pytest.mark.parametrize("argv,code,message,hint", [
    (["nosuch"], 2, "there is no page called “nosuch”", "`catrules docs --list` lists the pages"),
    (["langage"], 2, "there is no page called “langage”", "did you mean language?"),
    (["rul"], 2, "“rul” could be several pages: rulebook, rulings", "give more of the name"),
    (["meow", "--find", "zzz qqq"], 1, "“zzz qqq” is not in the page “meow”", "searches every page"),
    (["--find", "zzz qqq"], 1, "“zzz qqq” is not in any page", "try fewer or other words"),
    (["meow", "--find", " "], 2, "--find needs a word to look for", "catrules docs language --find"),
    (["--list", "meow"], 2, "--list takes no TOPIC and no --find", "`catrules docs --list` alone"),
])
def test_mistakes_are_answered_in_words(capsys, argv, code, message, hint):
    got, out, err = docs(capsys, *argv)
    assert got == code and out == ""
    assert f"catrules: error: {message}" in err and hint in err.partition("hint: ")[2] and "Traceback" not in err


def test_the_new_game_template_points_to_catrules_docs():
    _, text = template("Tile Duel")
    assert "`catrules docs language`" in text and "docs/language.rst" not in text


# --- the pager: only for a terminal --------------------------------------------------------------

def _in_terminal(tmp_path, *argv):
    """Run ``catrules docs`` with a terminal of 20 lines as stdin and stdout; what the pager got."""
    import pty
    marker = tmp_path / "paged.txt"
    env = {**os.environ, "PAGER": f"cat > {marker}", "MANPAGER": f"cat > {marker}", "TERM": "xterm",
           "LINES": "20", "COLUMNS": "80"}
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "catrules", "docs", *argv], cwd=ROOT, env=env,
                            stdin=follower, stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    os.close(leader)
    return (marker.read_text(encoding="utf-8") if marker.exists() else None), shown.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_long_page_in_a_terminal_goes_through_the_pager(tmp_path):
    paged, shown = _in_terminal(tmp_path, "meow")
    assert paged == docs_text.render(DOCS / "meow.rst") and "Meow, step by step" not in shown


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_pager_when_asked_or_when_it_fits(tmp_path):
    paged, shown = _in_terminal(tmp_path, "meow", "--no-pager")
    assert paged is None and "Meow, step by step" in shown
    paged, shown = _in_terminal(tmp_path, "meow", "--find", "The header")
    assert paged is None and "The header" in shown


def test_a_pipe_gets_the_page_without_a_pager(tmp_path):
    env = {**os.environ, "PAGER": f"cat > {tmp_path / 'paged.txt'}"}
    done = subprocess.run([sys.executable, "-m", "catrules", "docs", "meow"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == docs_text.render(DOCS / "meow.rst")
    assert not (tmp_path / "paged.txt").exists()


# --- the rendering -------------------------------------------------------------------------------

def _literalincludes():
    for page in PAGES:
        lines = (DOCS / f"{page}.rst").read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = docs_text._DIRECTIVE.match(line)
            if m and m.group(2) == "literalinclude" and "_generated" not in m.group(3):
                opts, _ = docs_text._options(lines, i + 1, len(m.group(1)))
                yield pytest.param(DOCS / m.group(3).strip(), opts, id=f"{page}:{i + 1}")


@pytest.mark.parametrize("path,opts", list(_literalincludes()))
def test_a_quoted_file_shows_the_lines_sphinx_shows(path, opts):
    code = pytest.importorskip("sphinx.directives.code")
    keys = ("lines", "start-at", "start-after", "end-at", "end-before", "dedent")
    sphinx_opts = {k: v for k, v in opts.items() if k in keys}
    if "dedent" in sphinx_opts:
        sphinx_opts["dedent"] = int(sphinx_opts["dedent"]) if sphinx_opts["dedent"] else None
    reader = code.LiteralIncludeReader(str(path), sphinx_opts, SimpleNamespace(source_encoding="utf-8", tab_width=8))
    assert docs_text._included(path, opts) == reader.read()[0].splitlines()


def test_the_rendering_reads_roles_links_and_pictures_out(tmp_path):
    (tmp_path / "quoted.cat").write_text("one\n    two\n    three\nfour\n", encoding="utf-8")
    (tmp_path / "page.rst").write_text(
        "Title\n=====\n\nSee :doc:`cli`, :doc:`the rules <rulings>`, :mod:`~catrules.runtime.state` and\n"
        "``a long\nliteral``, `Choices`_ and Compatibility_.\n\n.. _label:\n\n"
        ".. literalinclude:: quoted.cat\n   :language: catrules\n   :lines: 2-3\n   :dedent: 4\n   :caption: Two lines\n\n"
        ".. image:: x.png\n   :alt: a picture of cats\n\n.. contents:: On this page\n   :local:\n\n"
        ".. code-block:: console\n\n   $ catrules docs\n\nEnd.\n", encoding="utf-8")
    assert docs_text.render(tmp_path / "page.rst") == (
        "Title\n=====\n\nSee `catrules docs cli`, the rules (`catrules docs rulings`), state and\n`a long\nliteral`, \"Choices\" and \"Compatibility\".\n\n"
        "Two lines:\n\n    two\n    three\n\n[picture: a picture of cats]\n\n   $ catrules docs\n\nEnd.\n")


# --- the installed copy --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel built from this tree (``pip wheel``), unzipped."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "-w", str(out), "--no-deps", "-q"], capture_output=True, text=True, timeout=600)
    if built.returncode != 0 and "No module named pip" in built.stderr:
        pytest.skip("needs pip")
    assert built.returncode == 0, built.stderr
    (whl,) = out.glob("catrules-*.whl")
    with zipfile.ZipFile(whl) as z:
        z.extractall(out / "site")
        names = z.namelist()
    return out / "site", names


def test_the_wheel_carries_every_page_as_the_docs_render_it(wheel):
    site, names = wheel
    shipped = sorted(n for n in names if n.startswith("catrules/docs_pages/"))
    assert shipped == [f"catrules/docs_pages/{name}.txt" for name in PAGES]
    for name in PAGES:
        assert (site / "catrules" / "docs_pages" / f"{name}.txt").read_text(encoding="utf-8") == \
            docs_text.render(DOCS / f"{name}.rst"), name


def test_the_installed_command_reads_the_installed_pages(wheel, tmp_path):
    site, _ = wheel
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import catrules; from catrules.cli import main; "
            "assert catrules.__file__.startswith(sys.argv[1]), catrules.__file__; "
            "sys.exit(main(['docs', 'language', '--find', 'up to']))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    here = subprocess.run([sys.executable, "-m", "catrules", "docs", "language", "--find", "up to"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout == here.stdout and "up to" in done.stdout
