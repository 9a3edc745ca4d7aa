"""The sandbox's dashboard in a real browser: headless Chromium, driven through chromedriver
by Selenium. A session is paid; the dashboard lists it; its page refunds it through the
refund form; the state and the order.refunded delivery appear in its timeline; the
delivery is replayed, newly signed, from its form, and the replay appears as a delivery of
its own; a page of another site that submits the order's form by itself is refused. A
sandbox on a virtual clock is moved from the dashboard's +15 min button. Every page passes
axe-core with no serious or critical violation and, at 400 and 1400 px wide, scrolls not
sideways. Every name is shown as text.

    python3 dashboard_test.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]
"""

import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

import pages

HOSTILE = "<script>alert(1)</script> Pack"


def advance_clock(paylinks, driver):
    """A sandbox on a virtual clock: the dashboard's +15 min button moves it, and the
    dashboard it comes back to says where it stands."""
    with pages.closing() as stack:
        _, base = pages.serve(stack, paylinks, "--clock", "virtual", "--now", "2026-12-01T10:00:00Z")
        driver.get(base + "/")
        assert "2026-12-01T10:00:00.000Z" in driver.page_source, driver.page_source[:800]
        driver.find_element(By.CSS_SELECTOR, "form[action='/clock'] button[value='PT15M']").click()
        pages.banner(driver, "the clock moved to 2026-12-01T10:15:00.000Z")
        clock = pages.call(base, "/control/v1/clock")
        assert clock["now"] == "2026-12-01T10:15:00.000Z", clock
        pages.check(driver, "clock")


def main():
    paylinks, game_script = pages.arguments()
    with pages.closing() as stack:
        game_base = pages.game_server(stack, game_script)
        _, base = pages.serve(stack, paylinks, "--seed", "1", "--award-url", game_base + "/award",
                              "--events-url", game_base + "/events")
        purchase = pages.create(base, 499, name=HOSTILE)["purchaseId"]
        pages.control(base, purchase, "complete", {"choice": "pay"})
        driver = pages.browser(stack)

        # The dashboard lists the order, its name as text, granted once the award is back.
        driver.get(base + "/")
        pages.wait_for(driver, '<code class="code">charge_succeed</code>')
        row = driver.find_element(By.CSS_SELECTOR, "table.orders tbody tr")
        assert HOSTILE in row.text, row.text
        pages.no_alert(driver)
        pages.check(driver, "dashboard")

        # Its page; the refund form refunds it.
        driver.find_element(By.LINK_TEXT, purchase).click()
        pages.heading(driver, purchase)
        pages.check(driver, "order-paid")
        driver.find_element(By.CSS_SELECTOR, "form[action$='/refund'] button[value='refunded']").click()
        pages.banner(driver, "done: the order is payment_refunded")
        pages.wait_for(driver, "<strong>order.refunded</strong>")
        pages.check(driver, "order")

        # The refund's delivery, replayed newly signed from its own form.
        timeline = driver.find_element(By.CSS_SELECTOR, "ol.timeline")
        refunded = [item for item in timeline.find_elements(By.TAG_NAME, "li")
                    if "order.refunded" in item.text and "replay of" not in item.text][0]
        delivery = refunded.find_element(By.CSS_SELECTOR, "strong + span.mono").text
        refunded.find_element(By.CSS_SELECTOR, "button[value='true']").click()
        pages.banner(driver, "%s sent again newly signed" % delivery)
        pages.wait_for(driver, "replay of %s, newly signed) delivered" % delivery)
        pages.check(driver, "replayed")

        listing = pages.call(base, "/control/v1/deliveries?purchaseId=%s&kind=event" % purchase)
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
        pages.check(driver, "refused")
        state = pages.call(base, "/control/v1/sessions/%s" % purchase)["state"]
        assert state == "payment_refunded", state

        advance_clock(paylinks, driver)
        print("browser dashboard: %s listed, refunded from its page (payment_refunded, order.refunded delivered), "
              "%s replayed newly signed and delivered; another site's form refused; a virtual clock moved 15 min "
              "from the dashboard; every page axe-clean and no sideways scroll at 400 or 1400 px; names shown as "
              "text" % (purchase, delivery))


if __name__ == "__main__":
    main()
