"""report.html in a real browser: headless Chromium driven by Selenium, without network.

The seed course is checked in-process, its reports are written to a scratch folder, and the
page is opened from disk. The test asserts what a reviewer relies on: the page runs without a
console error, ``#failure-count`` agrees with ``report.json``, and "Failures only" hides every
passing claim while keeping every failing one visible. It saves screenshots (to
``$LESSONCHECK_ARTIFACTS`` when set, else the test's tmp folder) and prints their paths.

It is skipped only when no Chromium can be found at all; ``.ci/run`` installs Chromium and
chromedriver (Debian ``chromium``, ``chromium-driver``) when they are missing, so in CI it runs.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checkers.report import write_reports
from checkers.runner import run_paths

pytestmark = pytest.mark.slow  # a real browser: seconds per test

ROOT = Path(__file__).resolve().parents[2]

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVER_NAMES = ("chromedriver",)
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1600",
)


def _find(names: tuple[str, ...], *fallbacks: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return next((path for path in fallbacks if Path(path).is_file()), None)


@pytest.fixture(scope="module")
def seed_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The seed course's reports, written in-process to a scratch folder."""
    directory = tmp_path_factory.mktemp("reports")
    findings = run_paths([ROOT / "claims"])
    write_reports(directory, findings, root=ROOT)
    data = json.loads((directory / "report.json").read_text(encoding="utf-8"))
    return directory / "report.html", data


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Where screenshots go: ``$LESSONCHECK_ARTIFACTS`` (kept by CI) or the test's tmp folder."""
    configured = os.environ.get("LESSONCHECK_ARTIFACTS")
    folder = Path(configured) if configured else tmp_path / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Headless Chromium under chromedriver, with a fresh profile and no network use."""
    chromium = _find(CHROMIUM_NAMES, "/usr/bin/chromium", "/usr/lib/chromium/chromium")
    if chromium is None:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")
    driver_path = _find(DRIVER_NAMES, "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
    assert driver_path, f"found {chromium} but no chromedriver (apt-get install chromium-driver)"
    # Never let Selenium Manager look for drivers online: we name the driver ourselves.
    monkeypatch.setenv("SE_OFFLINE", "true")
    monkeypatch.setenv("SE_AVOID_STATS", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


VISIBLE = """
return Array.prototype.filter.call(
    document.querySelectorAll(arguments[0]),
    function (el) { return el.getClientRects().length > 0; }
).length;
"""
COUNT = "return document.querySelectorAll(arguments[0]).length;"
PASSING = '.finding[data-verdict="pass"]'
FAILING = '.finding:not([data-verdict="pass"])'


def test_report_in_headless_chromium(
    browser: Any, seed_report: tuple[Path, dict[str, Any]], artifacts: Path
) -> None:
    from selenium.webdriver.common.by import By

    page, data = seed_report
    summary = data["summary"]
    problems = summary["fail"] + summary["stale"] + summary["error"]
    assert problems > 0 and summary["pass"] > 0  # the seed course has both

    browser.get(page.as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert severe == [], f"console errors: {severe}"

    assert int(browser.find_element(By.ID, "failure-count").text) == problems
    passing = browser.execute_script(COUNT, PASSING)
    failing = browser.execute_script(COUNT, FAILING)
    assert passing == summary["pass"] and failing == problems
    assert browser.execute_script(VISIBLE, PASSING) == passing  # everything shows at first
    top = artifacts / "report-top.png"
    assert browser.save_screenshot(str(top))

    box = browser.find_element(By.ID, "filter-failures")
    assert not box.is_selected()
    box.click()
    assert box.is_selected()
    assert browser.execute_script(VISIBLE, PASSING) == 0
    assert browser.execute_script(VISIBLE, FAILING) == failing
    hidden = browser.execute_script(f"return document.querySelectorAll('{PASSING}[hidden]').length")
    assert hidden == passing
    # The lines of failing claims stay marked (colour and badge) in the filtered view.
    first = browser.find_element(By.CSS_SELECTOR, ".line.marked:not(.v-pass)")
    assert first.is_displayed()
    assert first.find_element(By.CSS_SELECTOR, ".badge").text in ("FAIL", "STALE", "ERROR")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", first)
    filtered = artifacts / "report-failures-only.png"
    assert browser.save_screenshot(str(filtered))

    box.click()  # and back: everything visible again
    assert browser.execute_script(VISIBLE, PASSING) == passing
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert severe == [], f"console errors: {severe}"
    print(f"screenshots: {top} {filtered}")


def _per_lesson(data: dict[str, Any]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for finding in data["findings"]:
        lesson = counts.setdefault(finding["source"] or finding["claims_file"], {})
        lesson[finding["verdict"]] = lesson.get(finding["verdict"], 0) + 1
    return counts


ROWS = """
return Array.prototype.map.call(
    document.querySelectorAll('#lesson-index tr[data-lesson]'),
    function (row) {
        return [row.dataset.lesson].concat(Array.prototype.map.call(
            row.querySelectorAll('td'), function (td) { return td.textContent.trim(); }));
    });
"""
TOP = "return document.querySelector(arguments[0]).getBoundingClientRect().top;"
SHOWN = """
return Array.prototype.filter.call(
    document.querySelectorAll(arguments[0]), function (el) { return el.checkVisibility(); }
).length;
"""
"""How many match and are rendered: unlike a layout box, this sees inside a closed <details>."""


def test_report_opens_on_the_lesson_index_with_passes_collapsed(
    browser: Any, seed_report: tuple[Path, dict[str, Any]], artifacts: Path
) -> None:
    from selenium.webdriver.common.by import By

    page, data = seed_report
    browser.get(page.as_uri())
    # The index is on the first screen, above every lesson, failures first.
    assert browser.execute_script(TOP, "#lesson-index") < browser.execute_script(TOP, ".lesson")
    assert browser.find_element(By.ID, "lesson-index").is_displayed()
    expected = _per_lesson(data)
    rows = browser.execute_script(ROWS)
    assert [row[0] for row in rows] == sorted(
        expected, key=lambda s: (-sum(n for v, n in expected[s].items() if v != "pass"), s)
    )
    for lesson, _, fail, stale, error, passed in rows:
        counts = expected[lesson]
        assert [int(fail), int(stale), int(error), int(passed)] == [
            counts.get(v, 0) for v in ("fail", "stale", "error", "pass")
        ]
    assert rows[0][2] != "0" and rows[-1][2:5] == ["0", "0", "0"]  # the all-pass lesson last

    # Passing claims show their header line only; the others show everything.
    summary = data["summary"]
    problems = summary["fail"] + summary["stale"] + summary["error"]
    assert browser.execute_script(VISIBLE, f"{PASSING} > details > summary") == summary["pass"]
    assert browser.execute_script(SHOWN, f"{PASSING} dl") == 0
    assert browser.execute_script(SHOWN, f"{FAILING} dl") == problems
    card = browser.find_element(By.CSS_SELECTOR, f"{PASSING} > details > summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", card)
    card.click()  # a reviewer can still open one
    assert browser.execute_script(SHOWN, f"{PASSING} dl") == 1
    card.click()

    # The wrong number is marked in its line, the corrected one in the fix.
    line = browser.find_element(By.CSS_SELECTOR, ".line.marked.v-fail mark.wrong")
    block = browser.find_element(By.CSS_SELECTOR, f"{FAILING} .fix mark.corrected")
    assert line.is_displayed() and block.is_displayed()
    fixes = [f for f in data["findings"] if f["verdict"] != "pass" and f["fix"]]
    assert browser.execute_script(SHOWN, "mark.corrected") == len(fixes) > 10
    score = browser.find_element(By.ID, "claim-claims-transformer-fundamentals-yaml-score-cat-cat")
    assert score.find_element(By.CSS_SELECTOR, ".fix mark.corrected").text == "0.80"
    line = browser.find_element(
        By.ID, f"lesson-content-transformer-fundamentals-md-L{score.get_attribute('data-line')}"
    )
    assert line.find_element(By.CSS_SELECTOR, "mark.wrong").text == "0.78"
    browser.execute_script("window.scrollTo(0, 0);")
    index = artifacts / "report-index.png"
    assert browser.save_screenshot(str(index))
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'});", score)
    browser.execute_script("window.scrollBy(0, -260);")
    failure = artifacts / "report-failure.png"
    assert browser.save_screenshot(str(failure))
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert severe == [], f"console errors: {severe}"
    print(f"screenshots: {index} {failure}")
