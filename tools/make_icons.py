"""Draw the site's app icons (static/icons/*.png) from static/favicon.svg with Debian's chromium.

    .venv/bin/python tools/make_icons.py

The web app manifest (web/app.py) and templates/base.html name them: a phone's home screen,
its app switcher and an installed app's splash screen show them, where an SVG is not taken.
"any" icons are the card on a transparent ground; "maskable" ones fill the square with the
site's ink and keep the card inside the middle 80% (the safe zone a launcher's mask never cuts);
apple-touch-icon is the maskable drawing at 180 px (iOS rounds the corners itself). Run again
after changing the favicon, and commit the PNGs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
# Debian's chromium with the flags the browser tests launch it with (this machine's rules).
sys.path.insert(0, str(ROOT))
from tests.web.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

OUT = ROOT / "static" / "icons"
# The site's ink (static/site.css --ink): the red card stands out on it.
GROUND = "#1d2126"
# (file, size in px, maskable)
ICONS = [
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-192.png", 192, True),
    ("maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
]


def page_for(svg: str, size: int, maskable: bool) -> str:
    # The favicon's card is 20 x 28 of its 32 x 32 box: drawn at the full size it stays within
    # the box; maskable, into the middle 72%, which keeps its corners inside the safe zone (the
    # middle circle of 80%).
    inner = round(size * (0.72 if maskable else 1.0))
    ground = GROUND if maskable else "transparent"
    return (
        f"<html><body style='margin:0;width:{size}px;height:{size}px;background:{ground};"
        "display:flex;align-items:center;justify-content:center'>"
        f"<img style='width:{inner}px;height:{inner}px' "
        f"src='data:image/svg+xml;utf8,{svg.replace('#', '%23')}'></body></html>"
    )


def main() -> None:
    svg = (ROOT / "static" / "favicon.svg").read_text().strip()
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, size, maskable in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, maskable))
            page.screenshot(path=str(OUT / name), omit_background=not maskable)
            page.close()
        browser.close()
    print("tools/make_icons.py: wrote", ", ".join(name for name, _, _ in ICONS))


if __name__ == "__main__":
    main()
