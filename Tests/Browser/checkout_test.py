"""The checkout page in a real browser: headless Chromium, driven through chromedriver by
Selenium, opens a session's parsedUrl, picks a payment method and pays; the award must
arrive at the example game server and the client's callback on paylinks' stdout. A session
whose offer is named like a script must show the name as text, with no alert. The checkout
page and its result pass axe-core with no serious or critical violation and, at 400 and
1400 px wide, scroll not sideways. Link Out: a session created with a redirectUrl sends the
browser, once the player paid (and the award was granted), was declined or canceled, to a
page the test serves, with status=success, fail or cancel in its query.

    python3 checkout_test.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]
"""

import http.server
import json
import signal
import subprocess
import threading
import time
import urllib.request

from selenium.webdriver.common.by import By

import pages


class Returns(http.server.BaseHTTPRequestHandler):
    """The game's return page: records each query it is sent, and says the player is back
    (to the browser's favicon request too, whose query it does not record)."""
    queries = []

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/return":
            Returns.queries.append(query)
        body = b"<!DOCTYPE html><title>Back in the game</title><h1>Back in the game</h1>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def return_page(stack):
    """Serves `Returns` on a free loopback port, stopped with `stack`: its URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Returns)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stack.callback(server.shutdown)
    return "http://127.0.0.1:%d/return?from=checkout" % server.server_address[1]


def link_out(driver, base, return_url, choice, seconds=15):
    """A session with `return_url` as its redirectUrl, its checkout opened and `choice`
    clicked: the query the browser came back with."""
    body = {
        "priceDetails": {"price": 499, "currency": "USD"},
        "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
        "customer": {"id": "cust_98765"}, "redirectUrl": return_url,
    }
    session = pages.call(base, "/checkout/v1/session", body)
    before = len(Returns.queries)
    driver.get(session["parsedUrl"])
    driver.find_element(By.CSS_SELECTOR, "button[value='%s']" % choice).click()
    deadline = time.time() + seconds
    while len(Returns.queries) == before:
        assert time.time() < deadline, "the browser never came back for %s: %s at %s" % (
            choice, driver.find_element(By.TAG_NAME, "body").text[:300], driver.current_url)
        # A pause between the polls of a bounded wait: the loop ends on its condition or fails at
        # its deadline, so no timing decides the result.
        time.sleep(0.1)
    # The return page's server notes the query before it sends the page: the page is waited for.
    pages.heading(driver, "Back in the game")
    return Returns.queries[-1]


def main():
    paylinks, game_script = pages.arguments()
    with pages.closing() as stack:
        game_base = pages.game_server(stack, game_script)
        serve, base = pages.serve(stack, paylinks, "--seed", "1", "--json", "--award-url", game_base + "/award",
                                  stdout=subprocess.PIPE)
        driver = pages.browser(stack)

        session = pages.create(base, 549, currency="EUR", price_point=499, country="DE")
        driver.get(session["parsedUrl"])
        assert driver.find_element(By.TAG_NAME, "h1").text == "Starter Pack"
        assert driver.find_element(By.CLASS_NAME, "price").text == "5,49 €"
        assert "Gems ×100" in driver.find_element(By.CLASS_NAME, "items").text
        pages.check(driver, "checkout")
        driver.find_element(By.CSS_SELECTOR, "input[value='PayPal']").click()
        driver.find_element(By.CSS_SELECTOR, "button[value='pay']").click()
        pages.wait_for(driver, "Payment complete")
        pages.check(driver, "result")

        hostile = "<script>alert(1)</script>"
        driver.get(pages.create(base, 549, currency="EUR", price_point=499, country="DE",
                                name=hostile)["parsedUrl"])
        assert driver.find_element(By.TAG_NAME, "h1").text == hostile
        pages.no_alert(driver)

        return_url = return_page(stack)
        for choice, status in [("pay", "success"), ("decline", "fail"), ("cancel", "cancel")]:
            query = link_out(driver, base, return_url, choice)
            assert query == "from=checkout&status=" + status, (choice, query)

        with urllib.request.urlopen(game_base + "/grants", timeout=10) as response:
            grants = json.load(response)["grants"]
        serve.send_signal(signal.SIGTERM)
        stdout, _ = serve.communicate(timeout=15)
        assert serve.returncode == 0, serve.returncode
        callbacks = [json.loads(line) for line in stdout.splitlines()]
        assert len(callbacks) == 4, callbacks
        assert [callback["callback"] for callback in callbacks[1:]] == [
            "onPurchaseSuccess", "onPurchaseFailed", "onPurchaseFailed"], callbacks
        order = callbacks[0]["order"]
        assert callbacks[0]["callback"] == "onPurchaseSuccess"
        assert order["paymentMethodName"] == "PayPal" and order["purchaseId"] == session["purchaseId"]
        assert grants.get(order["orderId"]) == "grant_1" and len(grants) == 2, grants
        print("browser checkout: the page showed the offer, PayPal paid it, %s was granted as grant_1; "
              "a script-like name showed as text; both pages axe-clean and no sideways scroll at 400 or 1400 px; "
              "Link Out sent the browser back with success, fail and cancel"
              % order["orderId"])


if __name__ == "__main__":
    main()
