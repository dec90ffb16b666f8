"""The web app in a real browser: headless Chromium from the system packages, driven by
Selenium with the system's chromedriver (scripts/test installs both with apt-get when it can;
without them these tests skip and say why)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from translated_cr import ITALIAN, as_text

from search.cli import cli

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="chromium and chromedriver are not installed (scripts/test installs them as root)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A library (the seeds, an Italian CR in two editions where 205.4e became 205.4f, a rule
    whose text holds a script) served by uvicorn on 127.0.0.1."""
    import uvicorn

    from search.web.app import create_app

    home = tmp_path_factory.mktemp("site")
    files = tmp_path_factory.mktemp("files")
    before = as_text(ITALIAN, True)
    after = before.replace(b"14 novembre 2025", b"20 febbraio 2026").replace(b"205.4e ", b"205.4f ")
    (files / "cr-2025.txt").write_bytes(before)
    (files / "cr-2026.txt").write_bytes(after)
    hostile = b"- 205.1. Regola <script>window.owned = 1</script> della riga del tipo.\n"
    (files / "ostile.txt").write_bytes(hostile + b"- 205.2. Tipi di carta della regola.\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        added = CliRunner().invoke(
            cli, catch_exceptions=False, args=["add", *map(str, sorted(files.iterdir()))]
        )
        assert added.exit_code == 0, added.output
        assert CliRunner().invoke(cli, catch_exceptions=False, args=["index"]).exit_code == 0
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(home), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tmp_path_factory.mktemp("chromium")
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    yield driver
    driver.quit()


def _columns_x(browser, site: str, width: int) -> list[int]:
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 900)
    browser.get(f"{site}/?q=regola+delle+leggende")
    results = browser.find_elements(By.CSS_SELECTOR, ".result")
    columns = max((r.find_elements(By.CSS_SELECTOR, ".column") for r in results), key=len)
    return [c.rect["x"] for c in columns]


def test_languages_side_by_side_then_stacked(browser, site: str):
    """At 1280 px the languages of a result stand in columns; at 390 px one under another."""
    wide = _columns_x(browser, site, 1280)
    assert len(wide) >= 2 and len(set(wide)) == len(wide)
    narrow = _columns_x(browser, site, 390)
    assert len(set(narrow)) == 1


def test_a_cited_rule_is_a_link(browser, site: str):
    """205.4d's "(vedi regola 704.5j)" opens 704.5j's page."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 900)
    browser.get(f"{site}/rule/205.4d")
    assert browser.title == "205.4d — mtgrules"
    browser.find_element(By.LINK_TEXT, "704.5j").click()
    assert browser.current_url.endswith("/rule/704.5j") and browser.title == "704.5j — mtgrules"


def test_a_script_in_a_rule_stays_text(browser, site: str):
    """<script> in a rule's text is shown, never run."""
    from selenium.webdriver.common.by import By

    browser.get(f"{site}/rule/205.1")
    assert browser.execute_script("return window.owned") is None
    texts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".record .text")]
    assert any("<script>window.owned = 1</script>" in t for t in texts)


def test_the_diff_page_marks_a_move(browser, site: str):
    """205.4e became 205.4f: the diff page shows a move."""
    from selenium.webdriver.common.by import By

    browser.get(f"{site}/diff?from=2025-11-14&to=2026-02-20&lang=it")
    moved = browser.find_elements(By.CSS_SELECTOR, ".change.moved")
    assert [m.find_element(By.CSS_SELECTOR, ".from").text for m in moved] == ["205.4e"]


def test_slash_focuses_the_search_box(browser, site: str):
    """Pressing / anywhere puts the cursor in the search box."""
    from selenium.webdriver.common.by import By

    browser.get(f"{site}/rule/205.4d")
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "q"


PAGES = [
    "/", "/?q=regola+delle+leggende", "/?q=tipo&lang=it&kind=rule", "/rule/205.4d",
    "/rule/Station", "/rule/205.1", "/sources", "/diff?lang=it", "/diff", "/term",
    "/term/leggendario", "/nowhere",
]  # fmt: skip

# The WCAG contrast ratio of every element's own text against the first opaque background
# behind it; the lowest ones, as [ratio, tag, text].
LOW_CONTRAST = """
function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return m; }
function lum(c) { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; }
function background(e) { for (; e; e = e.parentElement) {
  const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0.5) return c; }
  return [255, 255, 255]; }
const low = [];
for (const e of document.querySelectorAll('body *')) {
  const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || !e.getClientRects().length) continue;
  const a = lum(rgb(getComputedStyle(e).color)), b = lum(background(e));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) low.push([ratio, e.tagName, e.textContent.trim().slice(0, 40)]);
}
return low;
"""


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_is_wider_than_the_window(browser, site: str, width: int):
    """At 390 px (a phone) and 1280 px, no page of any type scrolls sideways, and its text
    passes WCAG AA contrast (4.5:1)."""
    browser.set_window_size(width, 900)
    for path in PAGES:
        browser.get(site + path)
        inner = browser.execute_script("return window.innerWidth")
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        assert wide <= inner, (path, wide, inner)
        assert browser.execute_script(LOW_CONTRAST) == [], path


def test_filters_fold_away_and_controls_are_labelled(browser, site: str):
    """On a phone the filters are one folded line until opened; every visible control has a
    label; the search box and the navigation are reached with Tab."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(390, 900)
    browser.get(f"{site}/?q=regola+delle+leggende")
    details = browser.find_element(By.CSS_SELECTOR, "details.filters")
    assert details.get_attribute("open") is None and details.size["height"] < 60
    details.find_element(By.TAG_NAME, "summary").click()
    legend = details.find_element(By.TAG_NAME, "legend").text
    assert "none ticked: every language" in legend
    unlabelled = browser.execute_script(
        "return [...document.querySelectorAll('input:not([type=hidden]), select')]"
        ".filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.name)"
    )
    assert unlabelled == []
    from selenium.webdriver.common.action_chains import ActionChains

    browser.get(f"{site}/rule/205.4d")
    reached = []
    for _ in range(8):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        active = browser.switch_to.active_element
        reached.append(active.get_attribute("id") or active.text)
    assert "q" in reached and "Changes" in reached and "Sources" in reached


def test_the_home_page_and_the_new_pages(browser, site: str):
    """The home page lists the languages held and example searches that work; the diff page
    marks a move with its edition pickers set to the two newest Italian editions."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 900)
    browser.get(site + "/")
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "table.holdings th[scope=row]")]
    assert rows == ["Italiano", "Français", "Español"]
    browser.find_element(By.LINK_TEXT, "regola delle leggende").click()
    assert browser.title == "regola delle leggende — mtgrules"
    assert browser.find_elements(By.CSS_SELECTOR, ".result mark")
    browser.find_element(By.LINK_TEXT, "Changes").click()
    assert browser.find_element(By.CSS_SELECTOR, ".note").text.startswith("this library has no")
    browser.get(site + "/diff?lang=it")
    picked = [
        browser.find_element(By.CSS_SELECTOR, f"select[name={n}] option:checked").text
        for n in ("from", "to")
    ]
    assert picked == ["2025-11-14", "2026-02-20"]
