"""The checkout page in a real browser: headless Chromium, driven through chromedriver by
Selenium, opens a session's parsedUrl, picks a payment method and pays; the award must
arrive at the example game server and the client's callback on paylinks' stdout. A session
whose offer is named like a script must show the name as text, with no alert. The checkout
page and its result pass axe-core with no serious or critical violation and, at 400 and
1400 px wide, scroll not sideways.

    python3 checkout_test.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]
"""

import json
import signal
import subprocess
import urllib.request

from selenium.webdriver.common.by import By

import pages


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

        with urllib.request.urlopen(game_base + "/grants", timeout=10) as response:
            grants = json.load(response)["grants"]
        serve.send_signal(signal.SIGTERM)
        stdout, _ = serve.communicate(timeout=15)
        assert serve.returncode == 0, serve.returncode
        callbacks = [json.loads(line) for line in stdout.splitlines()]
        assert len(callbacks) == 1, callbacks
        order = callbacks[0]["order"]
        assert callbacks[0]["callback"] == "onPurchaseSuccess"
        assert order["paymentMethodName"] == "PayPal" and order["purchaseId"] == session["purchaseId"]
        assert grants == {order["orderId"]: "grant_1"}, grants
        print("browser checkout: the page showed the offer, PayPal paid it, %s was granted as grant_1; "
              "a script-like name showed as text; both pages axe-clean and no sideways scroll at 400 or 1400 px"
              % order["orderId"])


if __name__ == "__main__":
    main()
