"""The guides on the site (/guides/, web/guides.py): the rules, the bot author's guide, the API
guide and the training guide, rendered from docs/ with their headings' ids, their links
pointing at pages that answer, and the pages that need them linking to them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from games.creation import SeatSpec, game_create
from web import guides
from web.guides import GUIDES

pytestmark = pytest.mark.django_db

DOCS = Path(settings.BASE_DIR) / "docs"


class Page(HTMLParser):
    """The ids, hrefs and headings of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.headings: list[tuple[str, str]] = []  # (tag, id)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append((tag, str(found.get("id") or "")))


def parsed(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def doc_headings(slug: str) -> list[str]:
    """The words of the doc's ## headings, outside code blocks."""
    out, fenced = [], False
    for line in (DOCS / f"{slug}.md").read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## ") and line[3:].strip() != "Contents":
            out.append(line[3:].strip())
    return out


@pytest.mark.parametrize("slug", [g.slug for g in GUIDES])
def test_each_guide_renders_with_its_headings_and_contents(client, slug):
    response = client.get(f"/guides/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    page = parsed(html)
    h2_ids = [anchor for tag, anchor in page.headings if tag == "h2" and anchor]
    # Every ## heading of the doc is on the page with an id, and listed in the contents.
    words = re.sub(r"<[^>]+>", "", html)
    for heading in doc_headings(slug):
        assert heading.replace("`", "") in words
    article = html.split('<article class="guide">')[1]
    assert len([t for t, _ in parsed(article).headings if t == "h2"]) == len(doc_headings(slug))
    contents = html.split('aria-label="Contents"')[1].split("</nav>")[0]
    for anchor in h2_ids:
        if anchor in parsed(article).ids:
            assert f'href="#{anchor}"' in contents
    # No inline style or script reaches the page (the Content-Security-Policy).
    assert "<script" not in article and "style=" not in article
    assert f"docs/{slug}.md" in html  # the page says where it comes from


def test_anchors_are_githubs():
    """Links written for GitHub (docs/rules.md#the-precognitive-modifier) land on the section."""
    from web.guides import render_guide

    rules = parsed(render_guide("rules").html).ids
    for anchor in (
        "the-precognitive-modifier",
        "official",
        "basic-plus",
        "newno",
        "censorship",
        "refused-commands-reason-codes",
        "what-a-seat-sees-the-view",
    ):
        assert anchor in rules
    bots = parsed(render_guide("bots-api").html).ids
    assert "rehearsing-at-home-managepy-arena" in bots and "out-of-turn-windows" in bots


def test_every_link_on_the_guides_answers(client):
    """Every href on a guide page that points at the site returns 200; a #fragment names an id
    on the page it points at; links to docs that are not pages are plain text."""
    User.objects.create_user("ada")
    pages: dict[str, Page] = {}

    def fetch(path: str) -> Page:
        if path not in pages:
            response = client.get(path, follow=True)
            assert response.status_code == 200, path
            # A download (the arena's one file) is no page: nothing in it to follow.
            text = response["Content-Type"].startswith("text/")
            pages[path] = parsed(response.content.decode() if text else "")
        return pages[path]

    checked = 0
    for guide in GUIDES:
        page_path = f"/guides/{guide.slug}/"
        for href in fetch(page_path).hrefs:
            target = urlsplit(href)
            if target.scheme or target.netloc:
                continue  # another site (PettingZoo's)
            path, fragment = urldefrag(href)
            path = path or page_path
            # No link to a doc's file; a starter kit's README is served as a file.
            assert not path.endswith(".md") or path.startswith("/guides/starters/"), href
            target_page = fetch(path)
            if fragment and path.startswith("/guides/"):
                assert fragment in target_page.ids, href
            checked += 1
    assert checked > 100
    rules = client.get("/guides/rules/").content.decode()
    assert "<code>docs/bots.md</code>" in rules  # not a guide: its path, unlinked
    assert 'href="/guides/api/"' in rules
    api = client.get("/guides/api/").content.decode()
    assert 'href="/api/docs/"' in api  # Swagger stays the reference
    # The bot author's guide offers the arena's one file, above the guide and where it says so.
    bots = client.get("/guides/bots-api/").content.decode()
    assert bots.count('href="/downloads/uno-arena.pyz"') >= 2
    assert "Download the arena (one file, needs Python 3.11+)" in bots
    assert "curl -O http://testserver/downloads/uno-arena.pyz" in bots


# A Markdown link's target in a file the guides serve as it is (a starter kit's README).
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_internal_link_of_what_the_guides_serve_answers(client):
    """From the guides' index, every page and file the site serves as a guide (the rendered
    guides, and the starter kits' READMEs served as the files, whose links are relative as in
    the repository: `../../docs/bots-api.md`), and every link in them to the site itself,
    resolved against the address it is served at as a browser resolves it, answers 200 (after
    a redirect); a #fragment on a guide names an id there."""
    User.objects.create_user("ada")
    base = "http://testserver"
    seen: dict[str, tuple[str, set[str]]] = {}  # path: (final path, the ids on its page)
    to_read = ["/guides/"]
    broken: list[str] = []

    def get(path: str) -> tuple[str, set[str]] | None:
        if path not in seen:
            response = client.get(path, follow=True)
            if response.status_code != 200:
                return None
            final = response.redirect_chain[-1][0] if response.redirect_chain else path
            final = urlsplit(final).path
            if not response["Content-Type"].startswith("text/"):
                seen[path] = (final, set())  # a download: nothing in it to follow
                return seen[path]
            page = response.content.decode()
            if response["Content-Type"].startswith("text/html"):
                parsed_page = parsed(page)
                ids, links = parsed_page.ids, parsed_page.hrefs
            else:
                ids, links = set(), MARKDOWN_LINK.findall(page) if final.endswith(".md") else []
            seen[path] = (final, ids)
            if final.startswith("/guides/"):
                for href in links:
                    target = urlsplit(urljoin(base + final, href))
                    if target.netloc != "testserver":
                        continue  # another site
                    to_read.append(target.path + (f"#{target.fragment}" if target.fragment else ""))
        return seen[path]

    checked = 0
    while to_read:
        path, fragment = urldefrag(to_read.pop())
        found = get(path)
        checked += 1
        if found is None:
            broken.append(path)
        elif fragment and found[0].startswith("/guides/") and found[1]:
            if fragment not in found[1]:
                broken.append(f"{path}#{fragment}")
    assert broken == []
    for kit in ("python", "javascript"):
        assert f"/guides/starters/{kit}/README.md" in seen
    assert seen["/guides/docs/bots-api.md"][0] == "/guides/bots-api/"
    assert checked > 100


def test_a_kits_relative_links_to_the_docs_lead_to_the_guides(client):
    # As the kits' READMEs link them in the repository, resolved from where the site serves them.
    readme = "/guides/starters/javascript/README.md"
    for link, page in (
        ("../../docs/bots-api.md", "/guides/bots-api/"),
        ("../../docs/rules.md", "/guides/rules/"),
        ("../../docs/examples/pull_bot.py", "/guides/examples/pull_bot.py"),
    ):
        response = client.get(urljoin(readme, link))
        assert (response.status_code, response["Location"]) == (301, page)
        assert client.get(page).status_code == 200
    assert client.get("/guides/docs/workers.md").status_code == 404  # not a guide
    assert client.get("/guides/docs/examples/nothing.py").status_code == 404


def test_the_guides_index_and_the_docs_address(client):
    page = client.get("/guides/").content.decode()
    for guide in GUIDES:
        assert f'href="/guides/{guide.slug}/"' in page
    # docs/rules.md, as the docs and old pages name it, is the guide's page.
    response = client.get("/docs/bots-api.md")
    assert response.status_code == 301 and response["Location"] == "/guides/bots-api/"
    assert client.get("/docs/workers.md").status_code == 404
    assert client.get("/guides/workers/").status_code == 404


def test_the_pages_that_need_the_guides_link_to_them(client):
    ada = User.objects.create_user("ada")
    client.force_login(ada)
    home = client.get("/").content.decode()
    assert 'href="/guides/rules/"' in home and 'href="/guides/bots-api/"' in home
    assert 'href="/guides/"' in home  # the site's navigation
    bots = client.get("/me/bots/").content.decode()
    assert 'href="/guides/bots-api/"' in bots
    assert "The guide for bot authors is docs/bots-api.md" not in bots
    new_game = client.get("/play/new/").content.decode()
    for anchor in ("official", "basic-plus", "newno", "censorship", "the-precognitive-modifier"):
        assert f'href="/guides/rules/#{anchor}"' in new_game
    profile = client.get("/accounts/profile/").content.decode()
    token_section = profile.split('id="token-title"')[1].split("</section>")[0]
    assert 'href="/guides/api/#sessions-personal-tokens-and-csrf"' in token_section
    assert 'href="/api/docs/"' in token_section
    for path in ("/", "/me/bots/", "/play/new/", "/accounts/profile/"):
        for href in parsed(client.get(path).content.decode()).hrefs:
            if href.startswith("/guides/"):
                assert client.get(urldefrag(href)[0]).status_code == 200


@pytest.mark.parametrize(
    ("spec", "anchor", "words"),
    [
        ({"rules": "official", "options": {"target": 50}}, "official", "Official: the rules"),
        (
            {"rules": "basic-plus", "precognitive": {"lane": 2, "sight": "blind"}},
            "the-precognitive-modifier",
            "Precognitive (a lane of 2 cards, face down to all) over basic-plus: the rules",
        ),
    ],
)
def test_the_play_page_links_to_its_familys_rules(client, spec, anchor, words):

    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    seats = [SeatSpec(user=ada), SeatSpec(user=bob)]
    game = game_create(variant_spec=spec, seats=seats, seed=1, actor=ada)
    client.force_login(ada)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<a href="/guides/rules/#{anchor}" hx-boost="false">{words}</a>' in page
    assert anchor in parsed(client.get("/guides/rules/").content.decode()).ids


def test_the_bot_guide_links_each_example_which_the_site_serves_as_the_file(client):
    html = client.get("/guides/bots-api/").content.decode()
    examples = sorted(path.name for path in (Path(settings.BASE_DIR) / "docs/examples").iterdir())

    for name in ("pull_bot.py", "webhook_bot.py", "register_bot.py"):
        assert f'href="/guides/examples/{name}"' in html
    for name in examples:
        response = client.get(f"/guides/examples/{name}")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response.content == (Path(settings.BASE_DIR) / "docs/examples" / name).read_bytes()


@pytest.mark.parametrize("name", ["nothing.py", "..%2Fguides.py", "%2E%2E", "pull_bot"])
def test_only_the_examples_are_served(client, name):
    assert client.get(f"/guides/examples/{name}").status_code == 404


def test_the_guides_examples_address_the_site_itself(client):
    # A command copied from the site's guide runs against the site it was copied from.
    html = client.get("/guides/bots-api/").content.decode()

    assert "uno.example.org" not in html
    assert "python docs/examples/pull_bot.py http://testserver" in html


def test_the_bot_guide_links_the_starter_kits_which_the_site_serves_as_the_files(client):
    # A bot author who reads the guide on the site, not the repository, gets the kit in their
    # language from the site: each file, as it is.
    html = client.get("/guides/bots-api/").content.decode()
    starters = Path(settings.BASE_DIR) / "starters"

    for kit in ("python", "javascript"):
        assert f'href="/guides/starters/{kit}/README.md"' in html
        files = sorted(path.name for path in (starters / kit).iterdir() if path.is_file())
        assert "README.md" in files and len(files) == 4
        for name in files:
            assert f'href="/guides/starters/{kit}/{name}"' in html
            response = client.get(f"/guides/starters/{kit}/{name}")
            assert response.status_code == 200
            assert response["Content-Type"] == "text/plain; charset=utf-8"
            assert response.content == (starters / kit / name).read_bytes()


@pytest.mark.parametrize(
    "path", ["python/nothing.py", "ruby/bot.rb", "javascript/..%2Fpython%2Fbot.py", "%2E%2E/x"]
)
def test_only_the_starter_kits_files_are_served(client, path):
    assert client.get(f"/guides/starters/{path}").status_code == 404


def test_a_starter_kit_serves_only_its_sources(settings, tmp_path, client):
    # A dotfile or an editor's leftover in a kit's folder is not the site's to serve, and a
    # site without starters/ (an image built without it) still shows its guides.
    kit = tmp_path / "starters" / "javascript"
    kit.mkdir(parents=True)
    (kit / "bot.mjs").write_text("// a bot\n")
    (kit / ".env").write_text("SECRET=1\n")
    (kit / "bot.mjs~").write_text("// an old bot\n")
    settings.BASE_DIR = tmp_path

    assert guides.starter_kits() == {"javascript": ["bot.mjs"]}
    assert client.get("/guides/starters/javascript/bot.mjs").content == b"// a bot\n"
    assert client.get("/guides/starters/javascript/.env").status_code == 404
    assert client.get("/guides/starters/javascript/bot.mjs~").status_code == 404

    settings.BASE_DIR = tmp_path / "elsewhere"
    assert guides.starter_kits() == {}


def test_the_bot_guide_starts_with_each_languages_starting_point(client):
    """ "Start here" is the bot guide's first section, ahead of the arena's note: a line for
    JavaScript, Python and any other language, each linked to where it starts."""
    html = client.get("/guides/bots-api/").content.decode()
    article = html.split('<article class="guide">')[1]
    start = article.split('id="start-here"')[1].split("<h2")[0]
    assert article.index('id="start-here"') < article.index('class="arena-download')
    assert parsed(article).headings[1] == ("h2", "start-here")  # after the page's h1 alone
    lines = re.findall(r"<li>(.*?)</li>", start, flags=re.S)
    assert [re.sub(r"<[^>]+>", "", line).split(" ")[0] for line in lines] == [
        "JavaScript",
        "Python",
        "Any",
        "Then:",
    ]
    javascript, python, other, _ = lines
    assert 'href="/guides/starters/javascript/README.md"' in javascript
    assert 'href="#the-command-protocol"' in javascript
    assert 'href="/guides/starters/python/README.md"' in python
    assert 'href="#the-example-bots"' in python
    assert 'href="#pull-or-webhook"' in other and 'href="#a-decision"' in other
    # The shortest bots open their section, JavaScript first.
    protocol = article.split('id="the-command-protocol"')[1]
    assert protocol.index("createInterface") < protocol.index("import json, sys")
    assert protocol.index("import json, sys") < protocol.index("In full:")
