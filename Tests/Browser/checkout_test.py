"""The checkout page in a real browser: headless Chromium, driven through chromedriver by
Selenium, opens a session's parsedUrl, picks a payment method and pays; the award must
arrive at the example game server and the client's callback on paylinks' stdout. A session
whose offer is named like a script must show the name as text, with no alert.

    python3 checkout_test.py PAYLINKS RECEIVER_SCRIPT [SCREENSHOT_DIR]
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

paylinks, receiver_script = sys.argv[1], sys.argv[2]
screenshots = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
if screenshots:
    os.makedirs(screenshots, exist_ok=True)


def create(base, name):
    body = {
        "priceDetails": {"price": 549, "currency": "EUR"},
        "offer": {"name": name, "sku": "starter_pack_001", "pricePointMetadata": 499},
        "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
        "customer": {"id": "cust_98765"},
        "countryCode2": "DE",
    }
    request = urllib.request.Request(
        base + "/checkout/v1/session", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "x-publisher-token": "paylinks-demo-publisher-token"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
        return json.load(response)


def main():
    receiver = subprocess.Popen([sys.executable, receiver_script, "0"], stdout=subprocess.PIPE, text=True)
    serve = None
    driver = None
    try:
        receiver_port = int(receiver.stdout.readline())
        serve = subprocess.Popen(
            [paylinks, "serve", "--port", "0", "--seed", "1", "--json",
             "--award-url", "http://127.0.0.1:%d/award" % receiver_port],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        base = None
        while base is None:
            line = serve.stderr.readline()
            assert line, "paylinks serve ended before it listened"
            if "sandbox at " in line:
                base = line.split("sandbox at ", 1)[1].split(";", 1)[0]

        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=600,900"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                                  options=options)
        driver.set_page_load_timeout(20)

        session = create(base, "Starter Pack")
        driver.get(session["parsedUrl"])
        assert driver.find_element(By.TAG_NAME, "h1").text == "Starter Pack"
        assert driver.find_element(By.CLASS_NAME, "price").text == "5,49 €"
        assert "Gems ×100" in driver.find_element(By.CLASS_NAME, "items").text
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "checkout.png"))
        driver.find_element(By.CSS_SELECTOR, "input[value='PayPal']").click()
        driver.find_element(By.CSS_SELECTOR, "button[value='pay']").click()
        deadline = time.time() + 15
        while "Payment complete" not in driver.page_source:
            assert time.time() < deadline, "no result page: " + driver.page_source[:500]
            time.sleep(0.2)
            driver.refresh()
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "result.png"))

        hostile = "<script>alert(1)</script>"
        driver.get(create(base, hostile)["parsedUrl"])
        assert driver.find_element(By.TAG_NAME, "h1").text == hostile
        try:
            driver.switch_to.alert
            raise AssertionError("the offer's name ran as a script")
        except NoAlertPresentException:
            pass

        with urllib.request.urlopen("http://127.0.0.1:%d/grants" % receiver_port, timeout=10) as response:
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
              "a script-like name showed as text" % order["orderId"])
    finally:
        if driver is not None:
            driver.quit()
        if serve is not None and serve.poll() is None:
            serve.kill()
        receiver.kill()


if __name__ == "__main__":
    main()
