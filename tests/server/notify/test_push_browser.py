"""A real headless Chromium opts in to browser notifications on the
settings page: the page registers pbem's service worker, subscribes with
the server's VAPID key and hands the subscription to pbem."""

from __future__ import annotations

import uuid

import pytest

from pbem.notify.push import new_keys
from tests.server.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.server.live_browser import sign_in


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    args = [arg for arg in CHROMIUM_ARGS if arg != "--headless"] + ["--headless=new"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield browser
        browser.close()


pytestmark = pytest.mark.parametrize("app", ["sqlite"], indirect=True)


def test_chromium_registers_the_service_worker_from_the_settings_page(
    live,
    chromium,
    monkeypatch,
):
    """Headless Chromium has no push service: it refuses the subscription
    itself ("Registration failed - permission denied"), which the page shows;
    the subscription's way into pbem is tested with the page's own request
    in test_a_device_subscribes_and_unsubscribes."""
    app, base = live
    private, public = new_keys()
    monkeypatch.setitem(app.config, "PBEM_VAPID_PRIVATE_KEY", private)
    monkeypatch.setitem(app.config, "PBEM_VAPID_PUBLIC_KEY", public)
    context = chromium.new_context(base_url=base)
    context.grant_permissions(["notifications"], origin=base)
    page = context.new_page()
    sign_in(app, base, page, f"pushy-{uuid.uuid4().hex[:8]}@example.org", "Pushy")
    page.goto(f"{base}/settings")
    page.get_by_role("button", name="Notify me on this device").click()
    page.locator("#push-state[data-state]").wait_for(state="attached")
    workers = page.evaluate(
        "navigator.serviceWorker.getRegistrations()"
        ".then(r => r.map(x => [(x.active || x.installing || x.waiting).scriptURL, x.scope]))"
    )
    assert workers == [[f"{base}/push-worker.js", f"{base}/"]]
    assert page.locator("#push-state").get_attribute("data-state") in ("on", "failed")
    context.close()
