"""What check-openapi.sh needs besides schemathesis itself, in Python's standard library.

- `python3 openapi-check.py award`: a game server's award endpoint on 127.0.0.1 that grants
  every order (200 {"publisherPurchaseId": ...}) but those of the player `cust_refused`
  (400 {"publisherErrorMessage": ...}); prints its URL, then serves until killed.
- `python3 openapi-check.py seed BASE TOKEN OUT`: the sandbox's data the run needs to reach
  the operations on an existing session, player or delivery and not only their 404s, written
  to OUT as schemathesis dictionaries, with the run's form token, which every page carries.
- As schemathesis's hooks module (SCHEMATHESIS_HOOKS, with OPENAPI_CHECK_BASE and
  OPENAPI_CHECK_TOKEN): reads text/html as its text, so that the `Page` schema is applied,
  and seeds the same data again after each reset. A reset starts the seeded sandbox's ids
  over, so the data comes back with the same ids and the dictionaries stay true.
"""

import http.server
import json
import os
import sys
import time
import urllib.request

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def send(base, path, body, headers):
    """POSTs `body` as JSON; the answer's JSON."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        request.add_header(name, value)
    with OPENER.open(request, timeout=10) as answer:
        return json.load(answer)


def seed(base, token):
    """Sessions in each state the pages and APIs tell apart: open, paid (whose award makes a
    delivery), cancelled, paid with its award refused (Failed (Charged), which Retry Award
    takes), and one more open one, whose token the run's cancel gives. Their
    ids, tokens, players, orders and deliveries, the price points, and the form token."""
    data = {"purchases": [], "tokens": [], "customers": [], "orders": [], "bearer": ""}
    players = ["cust_0", "cust_1", "cust_2", "cust_refused", "cust_4"]
    paid = []
    for player, choice in zip(players, ["open", "pay", "cancel", "pay", "open"]):
        session = send(
            base,
            "/checkout/v1/session",
            {
                "priceDetails": {"price": 499, "currency": "USD"},
                "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
                "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
                "customer": {"id": player},
                "countryCode2": "US",
            },
            {"x-publisher-token": token},
        )
        if player == players[-1]:
            data["bearer"] = session["checkoutSessionToken"]
            continue
        data["purchases"].append(session["purchaseId"])
        data["tokens"].append(session["checkoutSessionToken"])
        if choice != "open":
            path = f"/control/v1/sessions/{session['purchaseId']}/complete"
            completed = send(base, path, {"choice": choice, "paymentMethod": "Visa"}, {})
            if "orderId" in completed:
                data["orders"].append(completed["orderId"])
            if choice == "pay":
                paid.append(session["purchaseId"])
    data["customers"] = players
    # The awards go out after the payments' answers: the listing holds each once it has
    # ended, granted or refused, so the run starts from the same states every time.
    deadline = time.time() + 20
    while True:
        deliveries = send_get(base, "/control/v1/deliveries", token)["deliveries"]
        if {delivery["purchaseId"] for delivery in deliveries} >= set(paid):
            break
        assert time.time() < deadline, "the awards of %s never ended" % paid
        # A pause between the polls of a bounded wait.
        time.sleep(0.05)
    data["deliveries"] = [delivery["id"] for delivery in deliveries]
    points = send_get(base, "/v1/price-points", token)["pricePoints"]
    data["pricePoints"] = [str(point["priceInUsdCents"]) for point in points]
    with OPENER.open(base + "/", timeout=10) as answer:
        page = answer.read().decode()
    marker = 'name="formToken" value="'
    start = page.index(marker) + len(marker)
    data["formToken"] = page[start : page.index('"', start)]
    return data


def send_get(base, path, token):
    """GETs `path` with the publisher token; the answer's JSON."""
    request = urllib.request.Request(base + path)
    request.add_header("x-publisher-token", token)
    with OPENER.open(request, timeout=10) as answer:
        return json.load(answer)


def dictionaries(data):
    """The seeded data as schemathesis's configuration: dictionaries, and the Bearer token
    of the session it cancels through the security scheme."""
    lines = [
        "[auth.openapi.checkoutSessionToken]",
        f"bearer = {json.dumps(data['bearer'])}",
    ]
    for name in ("purchases", "tokens", "customers", "orders", "deliveries", "pricePoints"):
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(data[name])}"]
    lines += ["[dictionaries.formTokens]", f"values = {json.dumps([data['formToken']])}"]
    lines += ["[dictionaries.checkoutKeys]", 'values = ["pk_sandbox_paylinks_demo"]']
    return "\n".join(lines) + "\n"


class Award(http.server.BaseHTTPRequestHandler):
    """Grants every award it is sent, each under its own id, but those of `cust_refused`."""

    granted = 0

    def do_POST(self):
        sent = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            refused = json.loads(sent).get("playerId") == "cust_refused"
        except (ValueError, AttributeError):
            refused = False
        if refused:
            status, answer = 400, {"publisherErrorMessage": "this player is refused"}
        else:
            Award.granted += 1
            status, answer = 200, {"publisherPurchaseId": f"grant_{Award.granted}"}
        body = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    if sys.argv[1:2] == ["award"]:
        server = http.server.HTTPServer(("127.0.0.1", 0), Award)
        print(f"http://127.0.0.1:{server.server_port}/award", flush=True)
        server.serve_forever()
    elif sys.argv[1:2] == ["seed"]:
        base, token, out = sys.argv[2:5]
        with open(out, "w") as file:
            file.write(dictionaries(seed(base, token)))
    else:
        sys.exit("usage: openapi-check.py award | seed BASE TOKEN OUT")
else:
    import schemathesis

    @schemathesis.deserializer("text/html")
    def page(ctx, response):
        """A page as its text, which the `Page` schema describes."""
        return response.content.decode("utf-8")

    @schemathesis.hook
    def after_call(context, case, response):
        """After a reset, the seeded data again, under the same ids."""
        if case.method.upper() == "POST" and case.path == "/control/v1/reset" and response.status_code == 200:
            seed(os.environ["OPENAPI_CHECK_BASE"], os.environ["OPENAPI_CHECK_TOKEN"])
