"""The dashboard's filters, totals and books in a real browser: headless Chromium, driven
through chromedriver by Selenium, against `paylinks serve` that grants to, tells and reads the
ledger of the example game server.

Two players pay for orders; one of A's is refunded, one lost and one won in a dispute, one is
declined; one of B's is lost in a dispute. The orders list's filter form, set to A's disputed
orders, lists those alone in a URL that carries the filter, and its USD totals are their
money as Appcharge counts it; a filter that matches more than a page (a third player's 51
orders) pages by links that keep it, its totals counting every page. A's page, once the game's ledger has settled, shows every
product's books equal to the ledger. A game server that takes nothing back on a refund
(`--flaw no-revoke`) shows, on its player's page, a product whose ledger differs from the
books, in words. A declined order's page offers no refund and a lost dispute's page no
dispute. Every page passes axe-core with no serious or critical violation and, at 400 and
1400 px wide, scrolls not sideways.

    python3 books_test.py PAYLINKS GAME_SERVER_SCRIPT [SCREENSHOT_DIR]
"""

import json
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import pages

PLAYER_A = "cust_alice"
PLAYER_B = "cust_bob"
PLAYER_C = "cust_carol"
# A player with more orders than a page of the list holds (50 rows a page).
PLAYER_D = "cust_dave"
MANY = 51
# How long the game's ledger may take to settle after the events, and a page to show it.
SETTLE = 15
# Each book row of the page: its SKU, class, Books and Ledger cells, and its words.
BOOKS = """
    return Array.from(document.querySelectorAll('table.books tr[data-sku]')).map(function (row) {
        function cell(label) {
            var td = row.querySelector('td[data-label="' + label + '"]');
            return td ? td.textContent.trim() : null;
        }
        return {sku: row.getAttribute('data-sku'), differs: row.classList.contains('differs'),
                books: cell('Books'), ledger: cell('Ledger'), text: row.textContent.replace(/\\s+/g, ' ').trim()};
    });
"""


def money(minor, currency="USD"):
    """An amount as the dashboard writes it: 2249 USD is "22.49 USD", grouped in thousands."""
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return "%s%s.%02d %s" % (sign, "{:,}".format(whole), cents, currency)


def paid(base, player, price, items, then=None):
    """A session of `player` for `price` US cents, paid: its purchase id, and `then`, what is
    done to it once granted ((action, body) for the control API, or None)."""
    purchase = pages.create(base, price, player=player, items=items)["purchaseId"]
    pages.control(base, purchase, "complete", {"choice": "pay"})
    return purchase, then


def granted(game_base, count, base, purchases, seconds=15):
    """Waits (for at most `seconds`) until the game server has made `count` grants and the
    sandbox has taken the game's answer for each of `purchases`: the game counts a grant before
    it answers, so only the sandbox's charge_succeed says an order can be refunded or disputed."""
    deadline = time.time() + seconds
    while True:
        with urllib.request.urlopen(game_base + "/grants", timeout=10) as response:
            grants = json.load(response)["grants"]
        waiting = [purchase for purchase in purchases if state(base, purchase) != "charge_succeed"]
        if len(grants) >= count and not waiting:
            return
        assert time.time() < deadline, "in %d s the game granted %d of %d orders and the sandbox still awaits %s" % (
            seconds, len(grants), count, waiting)
        # A pause between the polls of a bounded wait: the loop ends on its condition or fails at
        # its deadline, so no timing decides the result.
        time.sleep(0.2)


def state(base, purchase):
    return pages.call(base, "/control/v1/sessions/%s" % purchase)["state"]


def listed(driver):
    """The purchase ids of the orders the page lists."""
    return {row.get_attribute("data-purchase-id")
            for row in driver.find_elements(By.CSS_SELECTOR, "table.orders tr[data-purchase-id]")}


def filtered(driver, base, a_disputed, a_disputed_money):
    """(a) The list's filter form, set to A's disputed orders: the URL carries the filter,
    only those orders are listed, and the USD totals are their money."""
    driver.get(base + "/")
    pages.check(driver, "list")
    form = pages.element(driver, "form.filters[method='get']", "filter form")
    assert form.get_attribute("action").rstrip("/") == base.rstrip("/"), form.get_attribute("action")
    Select(form.find_element(By.CSS_SELECTOR, "select[name='state']")).select_by_value("disputed")
    field = form.find_element(By.CSS_SELECTOR, "input[name='player']")
    field.clear()
    field.send_keys(PLAYER_A)
    form.find_element(By.CSS_SELECTOR, "button:not([type]), button[type='submit'], input[type='submit']").click()

    def carries_filter(driver):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)
        return query.get("state") == ["disputed"] and query.get("player") == [PLAYER_A]
    WebDriverWait(driver, 15).until(carries_filter, "the URL does not carry the filter: %s" % driver.current_url)
    assert urllib.parse.urlsplit(driver.current_url).path == "/", driver.current_url

    shown = listed(driver)
    assert shown == set(a_disputed), "A's disputed orders are %s; the list shows %s" % (sorted(a_disputed),
                                                                                       sorted(shown))
    for row in driver.find_elements(By.CSS_SELECTOR, "table.orders tr[data-purchase-id]"):
        links = [link.get_attribute("href") for link in row.find_elements(By.CSS_SELECTOR, "a[href]")]
        assert any(urllib.parse.urlsplit(link).path == "/players/" + PLAYER_A for link in links), links

    pages.element(driver, "table.totals", "totals table")
    totals = driver.find_elements(By.CSS_SELECTOR, "table.totals tr[data-currency]")
    assert [row.get_attribute("data-currency") for row in totals] == ["USD"], [row.text for row in totals]
    cells = {}
    for label in ("Paid", "Refunded", "Disputed", "Net"):
        cell = totals[0].find_element(By.CSS_SELECTOR, "td[data-label='%s']" % label)
        cells[label] = cell.get_attribute("textContent").strip()
    paid_total, disputed_total = a_disputed_money
    expected = {"Paid": money(paid_total), "Refunded": money(0), "Disputed": money(disputed_total),
                "Net": money(paid_total - disputed_total)}
    assert cells == expected, "USD totals of A's disputed orders: %s, not %s" % (cells, expected)
    pages.check(driver, "list-filtered")
    return expected


def paged(driver, base):
    """A filter that matches more orders than a page holds, opened from its URL: 50 rows on the
    first page, the rest on the next, reached by its rel=next link that keeps the filter, and
    the totals of all of them on both."""
    driver.get(base + "/?" + urllib.parse.urlencode({"state": "paid", "player": PLAYER_D}))
    seen = []
    for number in (1, 2):
        rows = listed(driver)
        assert len(rows) == (50 if number == 1 else MANY - 50), "page %d lists %d orders" % (number, len(rows))
        seen.extend(rows)
        cell = pages.element(driver, "table.totals tr[data-currency='USD'] td[data-label='Paid']", "USD Paid total")
        assert cell.get_attribute("textContent").strip() == money(100 * MANY), cell.get_attribute("textContent")
        if number == 1:
            pages.check(driver, "list-page-1")
            link = pages.element(driver, "a[rel~='next']", "link to the next page").get_attribute("href")
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
            assert query.get("state") == ["paid"] and query.get("player") == [PLAYER_D], link
            driver.get(link)
    pages.element(driver, "a[rel~='prev']", "link to the previous page")
    assert not driver.find_elements(By.CSS_SELECTOR, "a[rel~='next']"), "a next page after the last"
    assert len(set(seen)) == MANY, "the pages list %d distinct orders of %d" % (len(set(seen)), MANY)
    pages.check(driver, "list-page-2")


def settled(driver, base, player, seconds=SETTLE):
    """(b) The player's page, reloaded until (for at most `seconds`) every product's books
    equal its ledger: those rows."""
    driver.get(base + "/players/" + urllib.parse.quote(player, safe=""))
    pages.heading(driver, player)
    last = []

    def agree():
        rows = driver.execute_script(BOOKS)
        last[:] = rows
        return rows and all(row["books"] is not None and row["books"] == row["ledger"] and not row["differs"]
                            for row in rows)
    deadline = time.time() + seconds
    while not agree():
        assert time.time() < deadline, "%s's books never agreed with the ledger in %d s: %s" % (
            player, seconds, last or driver.page_source[:1500])
        # A pause between the polls of a bounded wait: the loop ends on its condition or fails at
        # its deadline, so no timing decides the result.
        time.sleep(0.3)
        driver.refresh()
    return last


def differing(driver, base, player, seconds=SETTLE):
    """(c) The player's page, reloaded until (for at most `seconds`) a product's ledger
    differs from its books: that row."""
    driver.get(base + "/players/" + urllib.parse.quote(player, safe=""))
    last = []

    def differs():
        rows = driver.execute_script(BOOKS)
        last[:] = rows
        return [row for row in rows if row["differs"]]
    deadline = time.time() + seconds
    while not differs():
        assert time.time() < deadline, "%s's page never showed a ledger that differs in %d s: %s" % (
            player, seconds, last or driver.page_source[:1500])
        # A pause between the polls of a bounded wait: the loop ends on its condition or fails at
        # its deadline, so no timing decides the result.
        time.sleep(0.3)
        driver.refresh()
    return differs()[0]


def forbidden(driver, action):
    """Fails when the page offers a form posting to `action` with a button that is enabled."""
    for form in driver.find_elements(By.CSS_SELECTOR, "form[action$='/%s']" % action):
        for button in form.find_elements(By.CSS_SELECTOR, "button, input[type='submit']"):
            assert not button.is_enabled(), "%s offers /%s: %s" % (driver.current_url, action,
                                                                   button.get_attribute("outerHTML"))
            assert button.get_attribute("title"), "a disabled /%s button without its rule in a title" % action


def ruled(driver, base, declined, lost, won):
    """(d) The orders' pages offer only what their rules allow: a declined order no refund, a
    lost dispute no dispute."""
    driver.get(base + "/orders/" + declined)
    pages.heading(driver, declined)
    forbidden(driver, "refund")
    pages.check(driver, "order-declined")
    driver.get(base + "/orders/" + lost)
    pages.heading(driver, lost)
    forbidden(driver, "dispute")
    pages.check(driver, "order-dispute-lost")
    driver.get(base + "/orders/" + won)
    pages.heading(driver, won)
    pages.check(driver, "order-dispute-won")


def flawed(paylinks, game_script, driver):
    """(c) A game server that takes nothing back on a refund: its player's page shows a
    product whose ledger differs from the books, and says so in words."""
    with pages.closing() as stack:
        game_base = pages.game_server(stack, game_script, "--flaw", "no-revoke")
        _, base = pages.serve(stack, paylinks, "--seed", "2", "--award-url", game_base + "/award",
                              "--events-url", game_base + "/events", "--ledger-url", game_base + "/ledger")
        purchase, _ = paid(base, PLAYER_C, 499, (("gem_01", 100),))
        granted(game_base, 1, base, [purchase])
        pages.control(base, purchase, "refund", {})
        assert state(base, purchase) == "payment_refunded", state(base, purchase)
        row = differing(driver, base, PLAYER_C)
        assert "differ" in row["text"].lower(), "the row that differs does not say so in words: %s" % row
        pages.check(driver, "player-differs")
        return row


def history(base, game_base):
    """The orders of players A and B, granted, then refunded or disputed: the purchase ids of
    A's kept, refunded, lost and won orders, B's lost and kept ones, and A's declined one."""
    orders = [
        paid(base, PLAYER_A, 199, (("gem_01", 100),)),
        paid(base, PLAYER_A, 499, (("gem_01", 500),), ("refund", {})),
        paid(base, PLAYER_A, 999, (("coin_01", 50),), ("dispute", {"outcome": "lost"})),
        paid(base, PLAYER_A, 1250, (("gem_01", 1000),), ("dispute", {"outcome": "won"})),
        paid(base, PLAYER_B, 1999, (("gem_01", 2000),), ("dispute", {"outcome": "lost"})),
        paid(base, PLAYER_B, 799, (("coin_01", 80),)),
    ]
    d_orders = [paid(base, PLAYER_D, 100, (("coin_01", 1),))[0] for _ in range(MANY)]
    declined = pages.create(base, 299, player=PLAYER_A)["purchaseId"]
    pages.control(base, declined, "complete", {"choice": "decline"})
    # Every order the pages count as paid, and those acted on, charge_succeed in the sandbox.
    granted(game_base, len(orders) + MANY, base, [purchase for purchase, _ in orders] + d_orders)
    for purchase, then in orders:
        if then:
            pages.control(base, purchase, *then)
    a_kept, a_refunded, a_lost, a_won, b_lost, b_kept = [purchase for purchase, _ in orders]
    states = {purchase: state(base, purchase) for purchase, _ in orders}
    assert [states[p] for p in (a_refunded, a_lost, a_won, b_lost)] == [
        "payment_refunded", "payment_dispute_lost", "payment_dispute_won", "payment_dispute_lost"], states
    return a_kept, a_refunded, a_lost, a_won, b_lost, b_kept, declined


def main():
    paylinks, game_script = pages.arguments()
    with pages.closing() as stack:
        game_base = pages.game_server(stack, game_script)
        _, base = pages.serve(stack, paylinks, "--seed", "1", "--award-url", game_base + "/award",
                              "--events-url", game_base + "/events", "--ledger-url", game_base + "/ledger")

        a_kept, a_refunded, a_lost, a_won, b_lost, b_kept, declined = history(base, game_base)
        driver = pages.browser(stack)
        totals = filtered(driver, base, {a_lost, a_won}, (999 + 1250, 999))
        paged(driver, base)

        # A's page: their orders, and their books equal to the ledger once it has settled.
        driver.get(base + "/?" + urllib.parse.urlencode({"player": PLAYER_A}))
        driver.find_element(By.CSS_SELECTOR, "table.orders tr[data-purchase-id] a[href$='/players/%s']"
                            % PLAYER_A).click()
        pages.heading(driver, PLAYER_A)
        shown = listed(driver)
        assert {a_kept, a_refunded, a_lost, a_won} <= shown and not {b_lost, b_kept} & shown, shown
        books = settled(driver, base, PLAYER_A)
        assert "gem_01" in [row["sku"] for row in books], books
        pages.check(driver, "player")
        try:
            urllib.request.urlopen(base + "/players/nobody_at_all", timeout=10)
            raise AssertionError("a player with no orders has a page")
        except urllib.error.HTTPError as error:
            assert error.code == 404, error.code

        ruled(driver, base, declined, a_lost, a_won)

        row = flawed(paylinks, game_script, driver)
        print("browser books: A's disputed orders filtered by the form in the URL, USD totals %s; A's books equal "
              "the ledger (%s); a no-revoke game server's ledger shown to differ (%s); no refund on a declined "
              "order, no dispute on a lost one; every page axe-clean and no sideways scroll at 400 or 1400 px"
              % (", ".join("%s %s" % item for item in totals.items()),
                 ", ".join("%s %s" % (row["sku"], row["books"]) for row in books),
                 "%s: books %s, ledger %s" % (row["sku"], row["books"], row["ledger"])))


if __name__ == "__main__":
    main()
