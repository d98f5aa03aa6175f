"""The profile's "Show my username in the open database" checkbox sits beside its label, as the
site's other checkboxes do (the new-game form's precognitive one), its help text under both; at
360x740 and 1280x800."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_open_database_checkbox_sits_beside_its_label(open_page, width, height):
    page = open_page(make_user("ana"), reverse("web:profile"), width=width, height=height)
    box = page.get_by_role("checkbox", name="Show my username in the open database")
    assert box.is_visible()
    seen = page.evaluate(
        """() => {
          const input = document.querySelector('#id_export_name');
          const rect = el => { const r = el.getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
          const label = document.querySelector('label[for=id_export_name]');
          // The label's first line (an inline label wraps under the checkbox on a phone).
          const first = label.getClientRects()[0];
          return {box: rect(input), label: {left: first.left, top: first.top,
                                            bottom: label.getBoundingClientRect().bottom},
                  help: rect(document.querySelector('#id_export_name_helptext')),
                  describedBy: input.getAttribute('aria-describedby')};
        }"""
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#id_export_name").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"profile-checkbox-{width}.png"))
    checkbox, label, help_ = seen["box"], seen["label"], seen["help"]
    # On the label's first line, just before it.
    assert checkbox["right"] <= label["left"] <= checkbox["right"] + 16, seen
    assert label["top"] - 4 <= checkbox["top"] and checkbox["bottom"] <= label["top"] + 28, seen
    # The help text under both, and read with the checkbox.
    assert help_["top"] >= max(checkbox["bottom"], label["bottom"]) - 1, seen
    assert seen["describedBy"] == "id_export_name_helptext"
    # Clicking the label ticks it.
    before = box.is_checked()
    page.locator("label[for=id_export_name]").click()
    assert box.is_checked() is not before
