"""The open database's page (/data/, web/database.py): each month's files with their games,
sizes and checksums, downloads of exactly the files a manifest lists, valid HTML, and the
footer's link to it."""

from __future__ import annotations

import hashlib
import io
import subprocess

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from games import tasks
from tests.games.factories import make_game, play_to_end
from tests.web.test_html_valid import ROOT, validator

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(tmp_path):
    game = make_game(players=0, bots=["greedy", "greedy"], spec={"rules": "official",
                     "options": {"scoring": "single-hand"}})  # fmt: skip
    play_to_end(game.pk)
    with override_settings(EXPORTS_DIR=tmp_path):
        call_command("export_games", "--month", f"{timezone.now():%Y-%m}", stdout=io.StringIO())
        yield tmp_path / f"{timezone.now():%Y-%m}"


def test_the_page_lists_each_file_with_its_size_and_checksum_and_serves_it(client, exported):
    data = (exported / "official.jsonl.zst").read_bytes()
    month = exported.name

    page = client.get("/data/")

    html = page.content.decode()
    assert page.status_code == 200
    assert f'<h2 id="month-{month}">{month}</h2>' in html
    assert hashlib.sha256(data).hexdigest() in html
    assert f'href="/data/{month}/official.jsonl.zst" download>official.jsonl.zst</a>' in html
    assert '<a href="/data/">Open database</a>' in html  # the footer's link, on every page
    download = client.get(f"/data/{month}/official.jsonl.zst")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/zstd"
    assert f'filename="uno-{month}-official.jsonl.zst"' in download["Content-Disposition"]
    assert b"".join(download.streaming_content) == data

    page_file = exported.parent / "page.html"
    page_file.write_bytes(page.content)
    run = subprocess.run(
        [str(validator()), "--config", str(ROOT / ".htmlvalidate.json"), str(page_file)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    "path",
    ["manifest.json", "newno.jsonl.zst", "..%2Fmanifest.json", ".official.jsonl.zst.tmp"],
)
def test_only_a_file_the_manifest_lists_is_served(client, exported, path):
    (exported / ".official.jsonl.zst.tmp").write_bytes(b"half")
    assert client.get(f"/data/{exported.name}/{path}").status_code == 404
    assert client.get("/data/2026-13/official.jsonl.zst").status_code == 404


def test_no_month_yet(client, tmp_path):
    with override_settings(EXPORTS_DIR=tmp_path / "none"):
        assert "No month has been exported yet." in client.get("/data/").content.decode()


def test_the_monthly_task_writes_last_months_manifest(tmp_path):
    with override_settings(EXPORTS_DIR=tmp_path):
        tasks.export_games()
    today = timezone.now().date()
    last = f"{today.year - 1}-12" if today.month == 1 else f"{today.year}-{today.month - 1:02d}"
    assert (tmp_path / last / "manifest.json").is_file()


def test_the_api_lists_the_months_with_their_download_addresses(client, exported):
    data = (exported / "official.jsonl.zst").read_bytes()

    months = client.get("/api/data").json()

    assert [m["month"] for m in months] == [exported.name]
    assert months[0]["files"] == [
        {
            "family": "official",
            "name": "official.jsonl.zst",
            "games": 1,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "url": f"http://testserver/data/{exported.name}/official.jsonl.zst",
        }
    ]
