"""README.md and docs/*.md link only to files of this repository."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parent.parent
BARE_URL = re.compile(r"(?:https?://|www\.)[^\s)>\]]+")
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def link_targets(text: str) -> list[str]:
    """Link and image targets of a Markdown text, and bare URLs in prose (GitHub links those)."""
    targets, in_link = [], False
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        for child in token.children or ():
            if child.type == "link_open":
                targets.append(child.attrGet("href"))
            elif child.type == "image":
                targets.append(child.attrGet("src"))
            elif child.type == "text" and not in_link:
                targets.extend(BARE_URL.findall(child.content))
            in_link = child.type == "link_open" or (in_link and child.type != "link_close")
    return targets


def test_the_parser_finds_links_of_every_kind():
    text = ("[a](docs/x.md) ![i](static/i.png) <https://example.org/> `[no](code.md)`\n\n"
            "| a |\n|---|\n| see www.example.org/x |")
    assert link_targets(text) == ["docs/x.md", "static/i.png", "https://example.org/",
                                  "www.example.org/x"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_is_a_relative_path_that_exists(document):
    for target in link_targets(document.read_text(encoding="utf-8")):
        parts = urlsplit(target)
        assert not parts.scheme and not parts.netloc, f"{document.name} links outside: {target}"
        path = (document.parent / parts.path).resolve()
        assert path.is_relative_to(REPO), f"{document.name} links outside the repository: {target}"
        assert path.exists(), f"{document.name} links to a missing file: {target}"
