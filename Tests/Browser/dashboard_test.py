"""The sandbox's dashboard in a real browser: headless Chromium, driven through chromedriver
by Selenium. A session is paid; the dashboard lists it; its page refunds it through the
refund form; the state and the order.refunded delivery appear in its timeline; the
delivery is replayed, newly signed, from its form, and the replay appears as a delivery of
its own; a page of another site that submits the order's form by itself is refused. A
sandbox on a virtual clock is moved from the dashboard's +15 min button. At 600 and 1400 px
wide, no page scrolls sideways. Every name is shown as text.

    python3 dashboard_test.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

paylinks, game_script = sys.argv[1], sys.argv[2]
screenshots = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
if screenshots:
    os.makedirs(screenshots, exist_ok=True)
HOSTILE = "<script>alert(1)</script> Pack"


def call(base, path, body=None, token=True):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["x-publisher-token"] = "paylinks-demo-publisher-token"
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def wait_for(driver, text, seconds=15):
    """Reloads the page until it shows `text`, for at most `seconds`."""
    deadline = time.time() + seconds
    while text not in driver.page_source:
        assert time.time() < deadline, "the page never showed %r: %s" % (text, driver.page_source[:800])
        time.sleep(0.2)
        driver.refresh()


def banner(driver, text, seconds=15):
    """Waits (for at most `seconds`) for the page a form came back to, whose banner says `text`."""
    WebDriverWait(driver, seconds).until(
        expected_conditions.text_to_be_present_in_element((By.CLASS_NAME, "said"), text),
        "no banner saying %r" % text)


def fits(driver, width):
    driver.set_window_size(width, 1000)
    scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, "at %d px the page is %d px wide" % (width, scroll)


def shoot(driver, name):
    if not screenshots:
        return
    for width in (600, 1400):
        driver.set_window_size(width, 1000)
        driver.save_screenshot(os.path.join(screenshots, "%s-%d.png" % (name, width)))


def listening(serve):
    """The base URL `paylinks serve` says it listens at."""
    while True:
        line = serve.stderr.readline()
        assert line, "paylinks serve ended before it listened"
        if "sandbox at " in line:
            return line.split("sandbox at ", 1)[1].split(";", 1)[0]


def advance_clock(driver):
    """A sandbox on a virtual clock: the dashboard's +15 min button moves it, and the
    dashboard it comes back to says where it stands."""
    data = tempfile.mkdtemp(prefix="paylinks-clock-")
    serve = subprocess.Popen(
        [paylinks, "serve", "--port", "0", "--data", data, "--clock", "virtual", "--now", "2026-12-01T10:00:00Z"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = listening(serve)
        driver.get(base + "/")
        assert "2026-12-01T10:00:00.000Z" in driver.page_source, driver.page_source[:800]
        driver.find_element(By.CSS_SELECTOR, "form[action='/clock'] button[value='PT15M']").click()
        banner(driver, "the clock moved to 2026-12-01T10:15:00.000Z")
        clock = call(base, "/control/v1/clock")
        assert clock["now"] == "2026-12-01T10:15:00.000Z", clock
        fits(driver, 600)
        fits(driver, 1400)
        shoot(driver, "clock")
    finally:
        if serve.poll() is None:
            serve.kill()


def main():
    game = subprocess.Popen([sys.executable, game_script, "0"], stdout=subprocess.PIPE, text=True)
    serve = None
    driver = None
    data = tempfile.mkdtemp(prefix="paylinks-dashboard-")
    try:
        game_base = "http://127.0.0.1:%d" % int(game.stdout.readline())
        serve = subprocess.Popen(
            [paylinks, "serve", "--port", "0", "--seed", "1", "--data", data, "--award-url", game_base + "/award",
             "--events-url", game_base + "/events"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        base = listening(serve)

        session = call(base, "/checkout/v1/session", {
            "priceDetails": {"price": 499, "currency": "USD"},
            "offer": {"name": HOSTILE, "sku": "starter_pack_001", "pricePointMetadata": 499},
            "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
            "customer": {"id": "cust_98765"}})
        purchase = session["purchaseId"]
        call(base, "/control/v1/sessions/%s/complete" % purchase, {"choice": "pay"}, token=False)

        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                                  options=options)
        driver.set_page_load_timeout(20)

        # The dashboard lists the order, its name as text, granted once the award is back.
        driver.get(base + "/")
        wait_for(driver, "charge_succeed")
        row = driver.find_element(By.CSS_SELECTOR, "table.orders tbody tr")
        assert HOSTILE in row.text, row.text
        try:
            driver.switch_to.alert
            raise AssertionError("the offer's name ran as a script")
        except NoAlertPresentException:
            pass
        fits(driver, 600)
        fits(driver, 1400)
        shoot(driver, "dashboard")

        # Its page; the refund form refunds it.
        driver.find_element(By.LINK_TEXT, purchase).click()
        WebDriverWait(driver, 15).until(
            expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), purchase), "no order page")
        driver.find_element(By.CSS_SELECTOR, "form[action$='/refund'] button[value='refunded']").click()
        banner(driver, "done: the order is payment_refunded")
        wait_for(driver, "<strong>order.refunded</strong>")
        fits(driver, 600)
        fits(driver, 1400)
        shoot(driver, "order")

        # The refund's delivery, replayed newly signed from its own form.
        timeline = driver.find_element(By.CSS_SELECTOR, "ol.timeline")
        refunded = [item for item in timeline.find_elements(By.TAG_NAME, "li")
                    if "order.refunded" in item.text and "replay of" not in item.text][0]
        delivery = refunded.find_element(By.CSS_SELECTOR, "strong + span.mono").text
        refunded.find_element(By.CSS_SELECTOR, "button[value='true']").click()
        banner(driver, "%s sent again newly signed" % delivery)
        wait_for(driver, "replay of %s, newly signed) delivered" % delivery)
        shoot(driver, "replayed")

        listing = call(base, "/control/v1/deliveries?purchaseId=%s&kind=event" % purchase)
        names = [(item["name"], item.get("replayOf")) for item in listing["deliveries"]]
        assert ("order.refunded", delivery) in names, names

        # A page of another site (here a data: URL, whose Origin is null) submits the order's
        # dispute form by itself: the browser sends it, the sandbox refuses it.
        attack = ('<form method="post" action="%s/orders/%s/dispute">'
                  '<input type="hidden" name="outcome" value="lost"></form>'
                  '<script>document.forms[0].submit()</script>' % (base, purchase))
        driver.get("data:text/html;charset=utf-8," + urllib.parse.quote(attack))
        WebDriverWait(driver, 15).until(
            expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Refused"),
            "the other site's form was not refused")
        state = call(base, "/control/v1/sessions/%s" % purchase)["state"]
        assert state == "payment_refunded", state

        advance_clock(driver)
        print("browser dashboard: %s listed, refunded from its page (payment_refunded, order.refunded delivered), "
              "%s replayed newly signed and delivered; another site's form refused; a virtual clock moved 15 min "
              "from the dashboard; no sideways scroll at 600 or "
              "1400 px; names shown as text" % (purchase, delivery))
    finally:
        if driver is not None:
            driver.quit()
        if serve is not None and serve.poll() is None:
            serve.kill()
        game.kill()


if __name__ == "__main__":
    main()
