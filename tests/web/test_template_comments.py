"""Django's `{# #}` comment ends on its own line: one that runs over two lines is not a comment
at all and reaches the page as text. Every template's `{#` closes on the line it opens."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def unclosed_comments() -> list[str]:
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            opened = line.find("{#")
            if opened != -1 and "#}" not in line[opened:]:
                found.append(f"{path.relative_to(ROOT)}:{number}")
    return found


def test_every_template_comment_closes_on_its_line():
    assert unclosed_comments() == []


def test_the_check_finds_a_comment_over_two_lines(tmp_path, monkeypatch):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text("{# a note\n that runs on #}\n<p>x</p>\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert unclosed_comments() == ["templates/page.html:1"]
