"""The guides on the site (`/guides/`): the rules, the bot author's guide, the API guide and the
training guide, rendered from `docs/*.md` when a page is asked for, so the files in docs/ stay
the one source (docs/web.md, "The guides").

The Markdown is CommonMark with GitHub's tables (markdown-it-py), and every heading gets the id
GitHub gives it (mdit-py-plugins' anchors), so `docs/rules.md#the-precognitive-modifier` and
`/guides/rules/#the-precognitive-modifier` name the same section. The docs are ours and reviewed
in the repository, so they are trusted; raw HTML in them is still off (escaped as text, never
markup), so nothing in a doc reaches the page as a tag, a script or a style, and the
Content-Security-Policy holds without a sanitiser.

Links between docs point at the site's pages when the target is a published guide (a link
`[api.md](api.md)`, or a mention such as `docs/rules.md` or `training.md` in the text) and are
left as plain text otherwise (`workers.md` is a file of the repository, not a page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin


@dataclass(frozen=True)
class Guide:
    slug: str  # the doc's file name without .md, and the page's address: /guides/<slug>/
    title: str  # the link's words on the site
    summary: str  # one line on the guides' index


GUIDES: tuple[Guide, ...] = (
    Guide(
        "rules",
        "The rules",
        "How to play, in a few minutes; then each family's full rules and, for programmers, "
        "the commands, what a seat sees, the events.",
    ),
    Guide(
        "bots-api",
        "Writing a bot",
        "Registering and validating a bot, the decisions it is sent, time limits, examples.",
    ),
    Guide(
        "api",
        "The JSON API",
        "Who may call what, tokens, errors and limits; the endpoint reference is the API's "
        "Swagger page.",
    ),
    Guide(
        "playing-tournaments",
        "Playing in a tournament",
        "Entering, the round's deadline and your turn's, and how each format gives points.",
    ),
    Guide("training", "Training bots offline", "The PettingZoo environment over the real engine."),
    Guide(
        "database",
        "The open database",
        "Every finished game, month by month, and a loader for imitation learning.",
    ),
)
BY_SLUG = {guide.slug: guide for guide in GUIDES}
# Addresses people guess for a guide whose doc has another name (docs/tournaments.md is the
# maintainers' account): a permanent redirect to the guide.
ALIASES = {"tournaments": "playing-tournaments"}

# A mention of a published guide in a doc's text or code: `rules.md`, `docs/api.md#errors`.
_MENTION = re.compile(
    r"(?<![\w/.-])(?:docs/)?(" + "|".join(re.escape(g.slug) for g in GUIDES) + r")\.md"
    r"(#[\w-]+)?(?![\w-])"
)
# A mention of an example program the site serves (`docs/examples/pull_bot.py`).
_EXAMPLE = re.compile(r"(?<![\w/.-])docs/examples/([\w-]+\.py)(?![\w.-])")
# A mention of a starter kit (`starters/javascript`) or one of its files
# (`starters/javascript/bot.mjs`), which the site serves as they are.
_STARTER = re.compile(r"(?<![\w/.-])starters/([\w-]+)(?:/([\w-]+\.\w+))?(?![\w/.-])")
# A link's target that is a doc: `api.md`, `docs/rules.md#cards`, `./training.md`.
_DOC_HREF = re.compile(r"^(?:\./)?(?:docs/)?([\w-]+)\.md(#[\w-]*)?$")
# The address the docs give a site in their examples; on the site, the site's own.
EXAMPLE_SITE = "https://uno.example.org"
# Paths of the site a doc names in code that are worth a click.
_SITE_PATHS = ("/api/docs/", "/api/schema/", "/downloads/uno-arena.pyz")


def guide_url(slug: str, fragment: str = "") -> str:
    return reverse("web:guide", args=[slug]) + (fragment or "")


def examples_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "examples"


def example_names() -> list[str]:
    """The example programs the guides quote, which the site serves as they are."""
    return sorted(path.name for path in examples_dir().glob("*.py"))


def starters_dir() -> Path:
    return Path(settings.BASE_DIR) / "starters"


# The kits' files the site serves: their sources and READMEs (no dotfile, no editor's leftover).
STARTER_FILES = re.compile(r"[\w-]+\.(?:md|py|mjs|js|json|txt)")


def starter_kits() -> dict[str, list[str]]:
    """The starter kits (starters/<kit>/) and their files, which the site serves as they are:
    a bot author who reads the guide on the site, in any language, gets the kit from there.
    None where the folder is missing (an image built without it)."""
    if not starters_dir().is_dir():
        return {}
    return {
        kit.name: sorted(
            path.name
            for path in kit.iterdir()
            if path.is_file() and STARTER_FILES.fullmatch(path.name)
        )
        for kit in sorted(starters_dir().iterdir())
        if kit.is_dir() and not kit.name.startswith(".")
    }


def _starter_link(kit: str, name: str | None) -> str | None:
    """The address of a kit's file (a kit itself: its README.md), or None if none is served."""
    name = name or "README.md"
    if name not in starter_kits().get(kit, []):
        return None
    return reverse("web:guide-starter", args=[kit, name])


def _mention_links(text: str) -> list[tuple[int, int, str]]:
    """Where `text` mentions a published guide, a served example or a starter kit's file:
    (start, end, address)."""
    found = [(m.start(), m.end(), guide_url(m[1], m[2] or "")) for m in _MENTION.finditer(text)]
    served = set(example_names())
    found += [
        (m.start(), m.end(), reverse("web:guide-example", args=[m[1]]))
        for m in _EXAMPLE.finditer(text)
        if m[1] in served
    ]
    for m in _STARTER.finditer(text):
        if href := _starter_link(m[1], m[2]):
            found.append((m.start(), m.end(), href))
    return sorted(found)


def _link(href: str, children: list[Token]) -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrSet("href", href)
    return [opening, *children, Token("link_close", "a", -1)]


def _linked_mentions(children: list[Token]) -> list[Token]:
    """Turn mentions of published guides (and the API's Swagger page) into links, outside links."""
    out: list[Token] = []
    depth = 0
    for token in children:
        if token.type == "link_open":
            depth += 1
        elif token.type == "link_close":
            depth -= 1
        if depth or token.type not in ("text", "code_inline"):
            out.append(token)
            continue
        if token.type == "code_inline":
            whole = [link for link in _mention_links(token.content) if link[0] == 0]
            if whole and whole[0][1] == len(token.content):
                out.extend(_link(whole[0][2], [token]))
            elif token.content in _SITE_PATHS:
                out.extend(_link(token.content, [token]))
            else:
                out.append(token)
            continue
        text, at = token.content, 0
        for start, end, href in _mention_links(text):
            if start > at:
                out.append(Token("text", "", 0, content=text[at:start]))
            words = Token("text", "", 0, content=text[start:end])
            out.extend(_link(href, [words]))
            at = end
        if at == 0:
            out.append(token)
        elif at < len(text):
            out.append(Token("text", "", 0, content=text[at:]))
    return out


def _rewritten_links(children: list[Token]) -> list[Token]:
    """A link to a published guide points at its page; any other link into the repository (a
    doc that is no page, an example file) keeps its words and loses the link, which would be
    broken on the site. Links to other sites and to a section of the same page stay."""
    out: list[Token] = []
    dropped: list[bool] = []
    skipping = False
    for token in children:
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            doc = _DOC_HREF.match(href)
            if doc and doc[1] in BY_SLUG:
                token.attrSet("href", guide_url(doc[1], doc[2] or ""))
                drop = False
            else:
                drop = not re.match(r"^(#|https?://|mailto:)", href)
            dropped.append(drop)
            if not drop:
                out.append(token)
            elif doc:
                # Named by its place in the repository: `docs/workers.md`, not a bare file name.
                out.append(Token("code_inline", "code", 0, content=f"docs/{doc[1]}.md"))
                skipping = True
                continue
        elif token.type == "link_close":
            skipping = False
            if not dropped.pop():
                out.append(token)
        elif not skipping:
            out.append(token)
    return out


def _without_contents(tokens: list[Token]) -> list[Token]:
    """Drop a doc's own "Contents" section: the page draws its contents list from the headings."""
    out: list[Token] = []
    skipping = False
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h1", "h2"):
            skipping = token.tag == "h2" and tokens[i + 1].content.strip() == "Contents"
        if not skipping:
            out.append(token)
    return out


def _html_renderer(md: MarkdownIt) -> RendererHTML:
    renderer = md.renderer
    assert isinstance(renderer, RendererHTML)
    return renderer


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    anchors_plugin(md, min_level=1, max_level=6)

    def table_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        # A wide table scrolls inside its own box (focusable, so a keyboard can scroll it), named
        # by the section it stands in.
        label = escapeHtml(str(tokens[idx].meta.get("label", "Table")))
        opened: str = self.renderToken(tokens, idx, options, env)
        return (
            f'<div class="table-scroll" tabindex="0" role="region" aria-label="{label}">' + opened
        )

    def table_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        closed: str = self.renderToken(tokens, idx, options, env)
        return closed + "</div>\n"

    def code(name: str) -> Any:
        stock = _html_renderer(md).rules[name]

        def rule(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
            # A long line scrolls inside the block, which a keyboard can reach and scroll.
            return str(stock(tokens, idx, options, env)).replace("<pre>", '<pre tabindex="0">', 1)

        return rule

    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    md.add_render_rule("fence", code("fence"))
    md.add_render_rule("code_block", code("code_block"))
    return md


_MD = _renderer()


@dataclass(frozen=True)
class Rendered:
    title: str  # the doc's h1 as words
    title_html: str  # and as HTML (its code spans kept)
    html: str
    contents: list[dict[str, Any]]  # the h2 sections, each with its h3s under "children"


_cache: dict[str, tuple[float, Rendered]] = {}


def doc_path(slug: str) -> Path:
    return Path(settings.BASE_DIR) / "docs" / f"{slug}.md"


def render_guide(slug: str) -> Rendered:
    """The guide's HTML, title and contents list, rendered again when its file changed."""
    path = doc_path(slug)
    mtime = path.stat().st_mtime
    cached = _cache.get(slug)
    if cached and cached[0] == mtime:
        return cached[1]
    env: dict[str, Any] = {}
    tokens = _without_contents(_MD.parse(path.read_text(encoding="utf-8"), env))
    title = title_html = ""
    section, tables = "", 0
    contents: list[dict[str, Any]] = []
    for i, token in enumerate(tokens):
        if token.type == "table_open":
            tables += 1
            token.meta["label"] = f"Table {tables}" + (f", under {section}" if section else "")
        if token.type == "inline" and token.children is not None:
            token.children = _linked_mentions(_rewritten_links(token.children))
        if token.type == "heading_open":
            words = "".join(
                c.content for c in tokens[i + 1].children or [] if c.type in ("text", "code_inline")
            )
            entry: dict[str, Any] = {"id": token.attrGet("id"), "title": words, "children": []}
            section = words
            if token.tag == "h1" and not title:
                title = words
                heading = tokens[i + 1].children or []
                title_html = _html_renderer(_MD).renderInline(heading, _MD.options, env)
            elif token.tag == "h2":
                contents.append(entry)
            elif token.tag == "h3" and contents:
                contents[-1]["children"].append(entry)
        if token.type in ("th_open", "td_open") and token.attrGet("style"):
            # No inline style may reach the page (the CSP): a column's alignment is a class.
            align = str(token.attrGet("style")).rsplit(":", 1)[-1]
            token.attrs.pop("style", None)
            token.attrSet("class", f"align-{align}")
    # The page's own heading is the doc's h1; the body starts after it.
    if tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        tokens = tokens[3:]
    rendered = Rendered(title, title_html, _MD.renderer.render(tokens, _MD.options, env), contents)
    _cache[slug] = (mtime, rendered)
    return rendered


def first_section(html: str) -> tuple[str, str]:
    """A guide's body split after its first section (what comes before its second `<h2`): the
    bot author's guide's "Start here", which a phone shows first, ahead of the arena's note."""
    first = html.find("<h2")
    second = html.find("<h2", first + 1) if first >= 0 else -1
    if second < 0:
        return html, ""
    return html[:second], html[second:]


def guides(request: HttpRequest) -> HttpResponse:
    """Every guide, with a line on what it holds."""
    return render(request, "guides/index.html", {"guides": GUIDES})


def guide(request: HttpRequest, slug: str) -> HttpResponse:
    """One guide, with its contents list. The docs' examples address a site as EXAMPLE_SITE;
    on the site they address the site itself, so that a command can be copied as it stands."""
    if slug in ALIASES:
        return HttpResponsePermanentRedirect(guide_url(ALIASES[slug]))
    if slug not in BY_SLUG:
        raise Http404("No such guide.")
    page = render_guide(slug)
    here = request.build_absolute_uri("/").rstrip("/")
    page = replace(page, html=page.html.replace(EXAMPLE_SITE, here))
    lead, rest = first_section(page.html)
    return render(
        request,
        "guides/guide.html",
        {"guide": BY_SLUG[slug], "page": page, "guides": GUIDES, "lead": lead, "rest": rest},
    )


def example(request: HttpRequest, name: str) -> HttpResponse:
    """An example program the guides quote (docs/examples/), as the file is: plain text."""
    if name not in example_names():
        raise Http404("No such example.")
    text = (examples_dir() / name).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


def starter(request: HttpRequest, kit: str, name: str) -> HttpResponse:
    """A file of a starter kit (starters/<kit>/), as the file is: plain text."""
    if name not in starter_kits().get(kit, []):
        raise Http404("No such starter file.")
    body = (starters_dir() / kit / name).read_bytes()  # as it is: the kits are UTF-8 text
    return HttpResponse(body, content_type="text/plain; charset=utf-8")


def doc_redirect(request: HttpRequest, slug: str) -> HttpResponse:
    """`/docs/rules.md`, as the docs name themselves, is the guide's page; so is
    `/guides/docs/rules.md`, where a starter kit's README's link `../../docs/rules.md` leads on
    the site (the README is served as a file, its links as the repository lays them out)."""
    if slug not in BY_SLUG:
        raise Http404("No such guide.")
    return HttpResponsePermanentRedirect(guide_url(slug))


def example_redirect(request: HttpRequest, name: str) -> HttpResponse:
    """`/guides/docs/examples/pull_bot.py`, where a kit's link `../../docs/examples/pull_bot.py`
    leads on the site, is the example's file."""
    if name not in example_names():
        raise Http404("No such example.")
    return HttpResponsePermanentRedirect(reverse("web:guide-example", args=[name]))
