"""What the browser tests share: starting `paylinks serve` and the example game server, the
sandbox's JSON APIs, a headless Chromium, and what every page visited must pass: no sideways
scroll at 400 and 1400 px, no serious or critical accessibility violation found by axe-core,
and its screenshots at both widths.

Each test is run as `python3 TEST.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]`; `arguments()`
reads that.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

PUBLISHER_TOKEN = "paylinks-demo-publisher-token"
# The widths every page must read well at; the first is the narrow one.
WIDTHS = (400, 1400)
# The rules axe-core checks, and the impacts that fail a page.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAILING_IMPACTS = {"serious", "critical"}

screenshots = None


def arguments():
    """The paylinks executable and the game server's script from the command line; keeps the
    screenshot directory, when one is given, for `shoot`."""
    global screenshots
    if len(sys.argv) < 3:
        raise SystemExit("usage: %s PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]" % sys.argv[0])
    if len(sys.argv) > 3 and sys.argv[3]:
        screenshots = sys.argv[3]
        os.makedirs(screenshots, exist_ok=True)
    return sys.argv[1], sys.argv[2]


def call(base, path, body=None, token=True):
    """GETs `path` (or POSTs `body` as JSON) and answers the JSON it returns."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["x-publisher-token"] = PUBLISHER_TOKEN
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AssertionError("%s %s answered %d: %s" % (request.get_method(), path, error.code,
                                                       error.read(2000).decode(errors="replace"))) from None


def create(base, price, currency="USD", player="cust_98765", name="Starter Pack", sku="starter_pack_001",
           items=(("gem_01", 100),), country=None, price_point=None):
    """A checkout session made through the publisher API: its JSON answer."""
    body = {
        "priceDetails": {"price": price, "currency": currency},
        "offer": {"name": name, "sku": sku, "pricePointMetadata": price if price_point is None else price_point},
        "items": [{"name": "Gems" if sku == "gem_01" else sku, "sku": sku, "quantity": quantity}
                  for sku, quantity in items],
        "customer": {"id": player},
    }
    if country:
        body["countryCode2"] = country
    return call(base, "/checkout/v1/session", body)


def control(base, purchase, action, body):
    """One of the control API's changes to an order: complete, refund, dispute..."""
    return call(base, "/control/v1/sessions/%s/%s" % (purchase, action), body, token=False)


def game_server(stack, script, *flags):
    """Starts the example game server on a free port, stopped with `stack`: its base URL."""
    game = subprocess.Popen([sys.executable, script, "0", *flags], stdout=subprocess.PIPE, text=True)
    stack.callback(stop, game)
    line = game.stdout.readline()
    assert line.strip().isdigit(), "the game server did not say its port: %r" % line
    return "http://127.0.0.1:%d" % int(line)


def serve(stack, paylinks, *options, stdout=subprocess.DEVNULL):
    """Starts `paylinks serve` on a free port with a fresh data directory, stopped with
    `stack`: the process and the base URL it says it listens at."""
    data = tempfile.mkdtemp(prefix="paylinks-browser-")
    process = subprocess.Popen([paylinks, "serve", "--port", "0", "--data", data, *options],
                               stdout=stdout, stderr=subprocess.PIPE, text=True)
    stack.callback(stop, process)
    said = []
    while True:
        line = process.stderr.readline()
        assert line, "paylinks serve ended before it listened: %s" % "".join(said)
        said.append(line)
        if "sandbox at " in line:
            return process, line.split("sandbox at ", 1)[1].split(";", 1)[0]


def stop(process):
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def browser(stack):
    """A headless Chromium driven through chromedriver, quit with `stack`."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(argument)
    chromedriver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    stack.callback(driver.quit)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(30)
    return driver


def wait_for(driver, text, seconds=15):
    """Reloads the page until it shows `text`, for at most `seconds`."""
    until(driver, lambda: text in driver.page_source, "the page never showed %r" % text, seconds)


def until(driver, condition, failure, seconds=15):
    """Reloads the page until `condition()` holds, for at most `seconds`; answers what it
    answered."""
    deadline = time.time() + seconds
    while True:
        result = condition()
        if result:
            return result
        assert time.time() < deadline, "%s within %d s: %s" % (failure, seconds, driver.page_source[:1500])
        # A pause between the polls of a bounded wait: the loop ends on its condition or fails at
        # its deadline, so no timing decides the result.
        time.sleep(0.2)
        driver.refresh()


def banner(driver, text, seconds=15):
    """Waits (for at most `seconds`) for the page a form came back to, whose banner says `text`."""
    WebDriverWait(driver, seconds).until(
        expected_conditions.text_to_be_present_in_element((By.CLASS_NAME, "said"), text),
        "no banner saying %r" % text)


def heading(driver, text, seconds=15):
    """Waits (for at most `seconds`) for a page whose h1 holds `text`."""
    WebDriverWait(driver, seconds).until(
        expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), text), "no h1 with %r" % text)


def element(driver, css, what):
    """The page's first element that `css` selects; fails, naming `what`, when there is none."""
    found = driver.find_elements(By.CSS_SELECTOR, css)
    assert found, "no %s (%s) on %s" % (what, css, driver.current_url)
    return found[0]


def no_alert(driver):
    """Fails when a script of the page's data raised an alert."""
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return
    raise AssertionError("a name ran as a script")


def fits(driver, width):
    """Fails when the page, in a window `width` px wide, is wider than the window."""
    driver.set_window_size(width, 1000)
    scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, "at %d px %s is %d px wide" % (width, driver.current_url, scroll)


def shoot(driver, name):
    """Saves the page's screenshots at every width, when a directory was given."""
    if not screenshots:
        return
    for width in WIDTHS:
        driver.set_window_size(width, 1000)
        driver.save_screenshot(os.path.join(screenshots, "%s-%d.png" % (name, width)))
    driver.set_window_size(WIDTHS[-1], 1000)


def axe_source():
    """axe-core's script, as the axe-core-python package ships it."""
    import axe_core_python
    path = os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js")
    with open(path, encoding="utf-8") as file:
        return file.read()


def axe(driver):
    """Runs axe-core on the page (injected through WebDriver, which the page's
    Content-Security-Policy does not govern) and fails on any serious or critical violation,
    saying each rule and the elements it found."""
    script = axe_source() + """
        ;var done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})
            .then(function (results) { done({violations: results.violations}); },
                  function (error) { done({error: String(error)}); });
    """
    results = None
    for attempt in range(2):
        try:
            results = driver.execute_async_script(script, AXE_TAGS)
            break
        except WebDriverException:
            # The page reloaded itself under axe (a page that refreshes every 5 s): once more.
            if attempt:
                raise
    assert results and "error" not in results, "axe did not run on %s: %s" % (driver.current_url, results)
    failing = [violation for violation in results["violations"] if violation.get("impact") in FAILING_IMPACTS]
    if failing:
        lines = ["axe: %d serious or critical violation(s) on %s" % (len(failing), driver.current_url)]
        for violation in failing:
            lines.append("  %s (%s): %s" % (violation["id"], violation["impact"], violation["help"]))
            for node in violation["nodes"]:
                lines.append("    %s  %s" % (" ".join(map(str, node["target"])), node["html"][:300]))
        raise AssertionError("\n".join(lines))


def check(driver, name):
    """What every page visited must pass: axe finds no serious or critical violation, and
    it is no wider than the window at every width; its screenshots are saved."""
    axe(driver)
    for width in WIDTHS:
        fits(driver, width)
    shoot(driver, name)


def closing():
    """A stack that stops, when the test ends, whatever was started under it."""
    return contextlib.ExitStack()
