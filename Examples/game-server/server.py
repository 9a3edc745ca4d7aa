#!/usr/bin/env python3
"""A game server's award and events endpoints done right, in Python's standard library alone.

Appcharge POSTs a Grant Award Callback to the game's server once a player has paid.
This server shows what such an endpoint must do, and paylinks' tests hold it to it:

- verify the signature over the raw bytes received (never over re-serialized JSON):
  `signature: t=<ms>,v1=<hex>`, v1 = HMAC-SHA256(main key, t + "." + body), compared in
  constant time;
- refuse a `t` more than 5 minutes from now (a replayed callback);
- check the `x-publisher-token`;
- grant each order once: a retry, or two copies arriving at the same moment, get the
  same publisherPurchaseId, and only one grant;
- answer 200 {"publisherPurchaseId": ...}, and 4xx {"publisherErrorMessage": ...} for a
  request it refuses.

Events (POST /events): Appcharge tells the game about every order. The handler verifies
them as it verifies awards (GAME_SERVER_EVENTS_KEY, else the main key), answers 2xx to every
verified event, even one it cannot use (a non-2xx only causes retries), has no second
effect for an `eventId` it has seen, even when two copies race, and takes items back:
- a refund (`order.refunded`, V1 `order_refunded`) or a lost dispute revokes the order's
  products once, joined to its grant by `transactions[].purchaseId` (V2) or
  `appChargeOrderId` (V1); a partial refund is recorded, not revoked (a studio's call);
- an order never granted loses nothing; a balance never goes below zero, and what could
  not be taken back is recorded as a shortfall;
- an award that comes after its order's refund or lost dispute (one whose attempts Appcharge
  gave up on, arriving late) is answered 200 with a publisherPurchaseId, so that it is not
  sent again, and grants nothing, which the ledger notes;
- a dispute opened takes nothing, so one won restores nothing.

Run it:  python3 server.py [PORT] [--host HOST] [--flaw NAME] [--clock-url URL]
         (PORT 0 picks a free one; the port is printed; HOST is 127.0.0.1 unless given,
         0.0.0.0 in a container that other containers call)
Clock:   --clock-url URL takes "now", for the 5-minute window, from a sandbox's clock instead of
         this machine's: GET URL answers {"now": "2026-12-01T10:00:00.000Z"}, as
         http://127.0.0.1:PORT/control/v1/clock does for `paylinks serve --clock virtual`, so that
         the server agrees with the sandbox on a virtual clock; a request that comes while the
         clock cannot be read is answered 503.
Look:    GET /grants lists every grant by order id, and how many grants were made, and each
         order's money as its award said it: the currency, what the player paid and its tax
         (minor units), and the studio's net (US cents; a fraction where the award gives one);
         GET /ledger?playerId=ID answers {"balances": {SKU: amount}} for the player, and
         what the handler recorded (shortfalls, partial refunds, refunds of orders never
         granted, awards that came after their order's refund).
Keys:    GAME_SERVER_MAIN_KEY and GAME_SERVER_PUBLISHER_TOKEN, else paylinks' demo key and token.

`--flaw NAME` makes it wrong on purpose, to show what `paylinks check-award` catches:
any-signature, grant-twice, reserialize, no-time-check; and in its answer, numeric-id
(publisherPurchaseId as a number), status-ok ({"status": "ok"}), created (201 instead of
200), one-connection (one connection served at a time). And what `paylinks check-events`
catches: no-revoke (a refund takes nothing back), revoke-twice (a duplicate takes it back
again), revoke-ungranted (a refund of an order never granted takes the event's products
from the player, below zero), revoke-on-open (a dispute opened takes the items, one won
never gives them back), in-order (a refund that arrives before the order's completion is
dropped), strict-fields (a 500 for a field it does not know), refuse-unknown (a 404 for an
event about an order it does not know), slow-events (each event answered after 2.1 s),
grant-on-partial (a partial refund grants the order's products again), events-down (every
event answered 503 at once, as by a server whose events handler is down);
any-signature and reserialize apply to events too. And what paylinks must not misread:
async-ledger (each verified event answered at once and handled from a queue 300 ms later,
the usual design: correct, though the ledger lags), die-after-grant (the whole server exits
once it has answered its first grant, as an agent that crashes on it), strip-spaces (the
verifier hashes the body without its spaces, awards and events), reserialize-500 (the
verifier hashes the body as PHP's json_encode writes it, `/` and non-ASCII escaped, and
throws on a bad signature: a 500, not a 401).
And what only a history of orders finds, both audits passing: grant-after-refund (an award
that arrives after its order's refund or lost dispute is granted anyway),
regrant-manual-retry (awards told apart by order and flow, so that Retry Award of an order
granted already, its answer lost, grants it again), dedupe-by-player (events told apart by
name and player, not by eventId, so that a player's second refund is taken for a copy of
the first and revokes nothing).
Never use a flaw in production.
"""
import datetime
import hashlib
import hmac
import http.client
import http.server
import json
import os
import queue
import socket
import socketserver
import sys
import threading
import time
import urllib.parse
import urllib.request

MAIN_KEY = os.environ.get("GAME_SERVER_MAIN_KEY", "paylinks-demo-main-key").encode()
EVENTS_KEY = os.environ.get("GAME_SERVER_EVENTS_KEY", "").encode() or MAIN_KEY
PUBLISHER_TOKEN = os.environ.get("GAME_SERVER_PUBLISHER_TOKEN", "paylinks-demo-publisher-token")
WINDOW_MS = 5 * 60 * 1000
# How long a read of --clock-url may take, seconds.
CLOCK_TIMEOUT = 5
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
FLAWS = {
    "any-signature", "grant-twice", "reserialize", "no-time-check", "numeric-id", "status-ok", "created",
    "one-connection", "no-revoke", "revoke-twice", "revoke-ungranted", "revoke-on-open", "in-order",
    "strict-fields", "refuse-unknown", "slow-events", "async-ledger", "die-after-grant", "strip-spaces",
    "reserialize-500", "grant-on-partial", "events-down", "grant-after-refund", "regrant-manual-retry",
    "dedupe-by-player",
}
# The flaw async-ledger: how long after its answer an event is handled.
QUEUE_DELAY = 0.3
# The V2 and V1 names of the events that take an order's products back.
REVOKING = {"order.refunded", "order_refunded", "order_dispute_lost"}
# The names of an order's completion, and of a dispute opened (which takes nothing back).
COMPLETED = {"order.completed", "order_completed_success"}
OPENED = {"order.dispute.opened", "order_dispute_open"}
# The top-level fields a V2 or V1 event may carry, as the reference lists them; the flaw
# strict-fields refuses any other, as a handler with a fixed schema would.
KNOWN_FIELDS = {
    "eventName", "eventId", "timestamp", "sessionId", "requestId", "result", "reason", "attributes", "customer",
    "offer", "order", "coupon", "storeMetadata", "geolocation", "device", "transactions", "sessionMetadata",
    "event", "appChargePaymentId", "appChargeOrderId", "playerId", "paymentMethod", "pricePointMetadata",
    "estimatedPublisherNetAmount", "estimatedAppchargeFee", "isSavedPaymentMethodUsed", "isNewPaymentMethodSaved",
}


class Ledger:
    """The grants: one per order id, safe when copies of a callback race; and what each
    player holds, which awards add to and refunds and lost disputes take back."""

    def __init__(self, grant_twice=False, grant_after_refund=False):
        self.lock = threading.Lock()
        self.grants = {}
        self.count = 0
        self.grant_twice = grant_twice
        self.grant_after_refund = grant_after_refund
        # What each grant gave, by order id and by purchase id: (player, {sku: amount}).
        self.given = {}
        self.by_purchase = {}
        self.balances = {}
        self.revoked = set()
        # Orders refunded or lost in a dispute before any award of theirs came, by
        # ("order", id) and ("purchase", id): how, such as "refund" or "lost dispute".
        # Appcharge may give up retrying an award and still deliver it late; such an award
        # grants nothing.
        self.taken_back = {}
        # The orders whose award came after that and granted nothing.
        self.withheld = set()
        self.seen_events = set()
        self.notes = {}
        self.completed = set()
        # Each granted order's money, by order id, as its award said it.
        self.money = {}

    def credit(self, order_id, award):
        """Adds an award's products to its player's balances, once per order; nothing, and a
        note, for an order refunded or lost in a dispute before its award came."""
        player = str(award.get("playerId", ""))
        products = {}
        for product in award.get("products") or []:
            if isinstance(product, dict):
                amount = int(float(product.get("amount") or 0))
                sku = str(product.get("sku", ""))
                products[sku] = products.get(sku, 0) + amount
        purchase = award.get("purchaseId")
        with self.lock:
            if order_id in self.given or order_id in self.withheld:
                return
            how = self.taken_back.get(("order", award.get("orderId")))
            if how is None and isinstance(purchase, str):
                how = self.taken_back.get(("purchase", purchase))
            if how is not None and not self.grant_after_refund:
                self.withheld.add(order_id)
                self.notes.setdefault(player, []).append(
                    "award of order %s after its %s: not granted" % (award.get("orderId"), how))
                return
            self.given[order_id] = (player, products)
            self.money[order_id] = {
                "currency": award.get("currency"),
                "priceInCents": award.get("priceInCents"),
                "tax": award.get("tax"),
                "net": award.get("estimatedPublisherNetAmount"),
            }
            if isinstance(purchase, str):
                self.by_purchase[purchase] = order_id
            held = self.balances.setdefault(player, {})
            for sku, amount in products.items():
                held[sku] = held.get(sku, 0) + amount

    def first_sight(self, event_id):
        """Whether this is the first time `event_id` arrives; atomic, so racing copies
        get one True between them."""
        with self.lock:
            if event_id in self.seen_events:
                return False
            self.seen_events.add(event_id)
            return True

    def note(self, player, text):
        with self.lock:
            self.notes.setdefault(player, []).append(text)

    def regrant(self, order_id):
        """The flaw grant-on-partial: give a granted order's products once more."""
        with self.lock:
            if order_id not in self.given:
                return
            player, products = self.given[order_id]
            held = self.balances.setdefault(player, {})
            for sku, amount in products.items():
                held[sku] = held.get(sku, 0) + amount

    def revoke(self, order_id, purchases=(), how="refund", twice=False):
        """Takes an order's products back once, never below zero; what is missing is a
        shortfall. An order never granted loses nothing, and is remembered by its order id
        and `purchases`, so that an award of it that comes later grants nothing. Returns
        what was done."""
        with self.lock:
            if order_id not in self.given:
                keys = [("order", order_id)] if order_id else []
                for key in keys + [("purchase", purchase) for purchase in purchases]:
                    self.taken_back.setdefault(key, how)
                return "nothing: never granted"
            if order_id in self.revoked and not twice:
                return "nothing: revoked already"
            self.revoked.add(order_id)
            player, products = self.given[order_id]
            held = self.balances.setdefault(player, {})
            for sku, amount in products.items():
                have = held.get(sku, 0)
                taken = min(have, amount)
                held[sku] = have - taken
                if taken < amount:
                    self.notes.setdefault(player, []).append(
                        "shortfall of %d %s on order %s" % (amount - taken, sku, order_id))
            return "revoked"

    def take_blindly(self, event):
        """The flaw revoke-ungranted: take the event's products from its player, whatever
        was granted, and below zero."""
        player = event_player(event)
        offer = event.get("offer") if isinstance(event.get("offer"), dict) else {}
        with self.lock:
            held = self.balances.setdefault(player, {})
            for product in offer.get("products") or []:
                if isinstance(product, dict):
                    sku = str(product.get("productExternalId") or product.get("sku") or "")
                    amount = int(float(product.get("productQuantity") or product.get("amount") or 0))
                    held[sku] = held.get(sku, 0) - amount
        return "revoked the event's products"

    def grant(self, order_id, award):
        if self.grant_twice:
            # The flaw: look, then wait, then write; two copies both see "not granted".
            known = self.grants.get(order_id)
            if known is not None:
                return known
            time.sleep(0.05)
            with self.lock:
                self.count += 1
                grant_id = "grant_%d" % self.count
                self.grants[order_id] = grant_id
            return grant_id
        with self.lock:
            known = self.grants.get(order_id)
            if known is not None:
                return known
            self.count += 1
            grant_id = "grant_%d" % self.count
            self.grants[order_id] = grant_id
            return grant_id


def signature_parts(header):
    """(t, v1) of a `t=<ms>,v1=<hex>` header, or None."""
    parts = {}
    for piece in header.split(","):
        name, _, value = piece.partition("=")
        parts[name.strip()] = value.strip()
    t, v1 = parts.get("t", ""), parts.get("v1", "")
    if not t.isdigit() or len(v1) != 64:
        return None
    return int(t), v1


def signed_bytes(raw, flaw):
    """The bytes the verifier hashes: the raw body received, as it must be; or, with a flaw,
    the body as the server would write it again, or without its spaces."""
    if flaw == "strip-spaces":
        return raw.replace(b" ", b"")
    if flaw in ("reserialize", "reserialize-500"):
        try:
            text = json.dumps(json.loads(raw), separators=(",", ":"))
        except ValueError:
            return raw
        # PHP's json_encode escapes '/' too (and, as Python here, every non-ASCII letter).
        return (text.replace("/", "\\/") if flaw == "reserialize-500" else text).encode()
    return raw


def event_player(event):
    """The player an event is about: V2's `customer.id` (or `customer.playerId`), V1's `playerId`."""
    customer = event.get("customer") if isinstance(event.get("customer"), dict) else {}
    return str(event.get("playerId") or customer.get("id") or customer.get("playerId") or "")


def handle_event(ledger, flaw, event):
    """What a verified event does: the answer's status and body."""
    if flaw == "strict-fields" and not set(event) <= KNOWN_FIELDS:
        return 500, {"message": "unexpected field"}
    name = event.get("eventName") or event.get("event") or ""
    if name == "order.dispute.resolved" and event.get("result") == "lost":
        name = "order_dispute_lost"
    # V2 names the event by eventId; V1 has none, so its name and order stand in.
    event_id = event.get("eventId") or "%s:%s" % (name, event.get("appChargeOrderId"))
    if flaw == "dedupe-by-player":
        # The flaw: events told apart by name and player, so that a player's second refund
        # looks like a copy of the first.
        event_id = "%s:%s" % (name, event_player(event))
    if flaw != "revoke-twice" and not ledger.first_sight(str(event_id)):
        return 200, {"handled": "a duplicate: no second effect"}
    order_id = event.get("appChargeOrderId")
    purchases = []
    amounts = {}
    for transaction in event.get("transactions") or []:
        if not isinstance(transaction, dict):
            continue
        if isinstance(transaction.get("purchaseId"), str):
            purchases.append(transaction["purchaseId"])
        order_id = order_id or ledger.by_purchase.get(transaction.get("purchaseId"))
        try:
            # A refund's row is negative (money going back to the player): its size is what counts.
            amounts[transaction.get("type")] = abs(float(transaction.get("amount", "0")))
        except (TypeError, ValueError):
            pass
    if name in COMPLETED:
        with ledger.lock:
            ledger.completed.add(order_id)
    if flaw == "revoke-on-open" and name in OPENED:
        # The flaw: take the items when the dispute opens; a dispute won restores nothing.
        return 200, {"handled": ledger.revoke(order_id, purchases, "opened dispute")}
    if name not in REVOKING or flaw == "no-revoke":
        return 200, {"handled": "nothing to take back"}
    if order_id not in ledger.given:
        if flaw == "revoke-ungranted":
            return 200, {"handled": ledger.take_blindly(event)}
        if flaw == "refuse-unknown":
            return 404, {"message": "unknown order"}
    if flaw == "in-order" and order_id not in ledger.completed:
        # The flaw: an event before the one it follows is dropped.
        return 200, {"handled": "ignored: the order has not completed"}
    if "refund" in amounts and "paid" in amounts:
        # Both in the order's currency, as decimal strings: less back than paid is partial.
        if amounts["refund"] < amounts["paid"]:
            player = ledger.given.get(order_id, ("",))[0]
            if flaw == "grant-on-partial":
                # The flaw: the refund's products are added where they should stay as they are.
                ledger.regrant(order_id)
                return 200, {"handled": "a partial refund, granted again"}
            ledger.note(player, "partial refund of order %s recorded, nothing revoked" % order_id)
            return 200, {"handled": "a partial refund, recorded"}
    how = "lost dispute" if name == "order_dispute_lost" else "refund"
    return 200, {"handled": ledger.revoke(order_id, purchases, how, twice=(flaw == "revoke-twice"))}


def read_clock(url):
    """Now in Unix milliseconds: this machine's without `url`, else the `now` a sandbox's
    GET `url` answers (ISO 8601 UTC, with milliseconds); None when it cannot be read."""
    if url is None:
        return int(time.time() * 1000)
    # Straight to the sandbox, never through a proxy the environment names.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=CLOCK_TIMEOUT) as response:
            text = json.loads(response.read()).get("now")
        moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")
    except (OSError, http.client.HTTPException, ValueError, TypeError, AttributeError):
        return None
    return (moment.replace(tzinfo=datetime.timezone.utc) - EPOCH) // datetime.timedelta(milliseconds=1)


def handle_later(ledger, work):
    """The flaw async-ledger's worker: each event handled, in the order it came, once its
    time has come."""
    while True:
        due, event = work.get()
        time.sleep(max(0.0, due - time.monotonic()))
        handle_event(ledger, "async-ledger", event)


def make_handler(ledger, flaw, work=None, clock_url=None):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def answer(self, status, payload):
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            # Inspection aids for tests and for people: every grant by order id, and a
            # player's balances (the ledger contract paylinks' tests read).
            path, _, query = self.path.partition("?")
            if path == "/ledger":
                player = urllib.parse.parse_qs(query).get("playerId", [""])[0]
                with ledger.lock:
                    balances = dict(ledger.balances.get(player, {}))
                    notes = list(ledger.notes.get(player, []))
                return self.answer(200, {"balances": balances, "notes": notes})
            if path != "/grants":
                return self.answer(404, {"publisherErrorMessage": "POST awards; GET /grants or /ledger?playerId=ID"})
            with ledger.lock:
                grants = dict(ledger.grants)
                money = dict(ledger.money)
            return self.answer(200, {"grants": grants, "count": ledger.count, "money": money})

        def refusal(self, raw, key):
            """None when the request is Appcharge's (token, signature over the raw bytes,
            a fresh `t`), with `self.now` the time it was checked at; else the refusal's
            status, 401 (503 for a clock that cannot be read), and message."""
            if self.headers.get("x-publisher-token") != PUBLISHER_TOKEN:
                return 401, "unknown publisher token"
            # The flaw reserialize-500: a bad signature throws, and the framework answers 500.
            status = 500 if flaw == "reserialize-500" else 401
            parts = signature_parts(self.headers.get("signature", ""))
            if parts is None:
                return status, "missing or malformed signature"
            t, v1 = parts
            expected = hmac.new(key, str(t).encode() + b"." + signed_bytes(raw, flaw), hashlib.sha256).hexdigest()
            if flaw != "any-signature" and not hmac.compare_digest(expected, v1):
                return status, "signature mismatch"
            # Now, for the window and for the grant's purchaseTime: this machine's, or the sandbox's.
            self.now = read_clock(clock_url)
            if self.now is None:
                return 503, "cannot read the clock at %s" % clock_url
            if flaw != "no-time-check" and abs(self.now - t) > WINDOW_MS:
                return status, "signature too old or from the future"
            return None

        def event(self, raw):
            if flaw == "events-down":
                # The flaw: the events handler is down; nothing is verified, nothing handled.
                return self.answer(503, {"message": "the events handler is down"})
            if flaw == "slow-events":
                time.sleep(2.1)
            refused = self.refusal(raw, EVENTS_KEY)
            if refused:
                return self.answer(refused[0], {"message": refused[1]})
            # A verified event is answered 2xx whatever becomes of it: handled here, not retried.
            try:
                event = json.loads(raw)
            except ValueError:
                return self.answer(200, {"handled": "ignored: the body is not JSON"})
            if not isinstance(event, dict):
                return self.answer(200, {"handled": "ignored: the body is not an object"})
            if work is not None:
                # The flaw async-ledger: acknowledged now, handled from the queue later.
                work.put((time.monotonic() + QUEUE_DELAY, event))
                return self.answer(200, {"handled": "queued"})
            status, payload = handle_event(ledger, flaw, event)
            return self.answer(status, payload)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.partition("?")[0] == "/events":
                return self.event(raw)
            refused = self.refusal(raw, MAIN_KEY)
            if refused:
                return self.answer(refused[0], {"publisherErrorMessage": refused[1]})
            now = self.now
            try:
                award = json.loads(raw)
                order_id = award["orderId"]
            except (ValueError, KeyError, TypeError):
                return self.answer(400, {"publisherErrorMessage": "the body is not an award"})
            if not isinstance(order_id, str) or not order_id:
                return self.answer(400, {"publisherErrorMessage": "orderId must be a non-empty string"})
            if flaw == "regrant-manual-retry" and award.get("awardFlow") == "manual_retry":
                # The flaw: awards told apart by order and flow, so that Retry Award of an order
                # granted already (its answer lost) grants it anew.
                order_id += ":manual_retry"
            grant_id = ledger.grant(order_id, award)
            ledger.credit(order_id, award)
            if flaw == "numeric-id":
                return self.answer(200, {"publisherPurchaseId": int(grant_id.split("_")[1])})
            if flaw == "status-ok":
                return self.answer(200, {"status": "ok"})
            if flaw == "die-after-grant":
                # The flaw: the server stops listening, as one whose process ends does, before the
                # answer goes out, so that no request after it can reach the dying process.
                self.server.socket.shutdown(socket.SHUT_RDWR)
            self.answer(201 if flaw == "created" else 200, {"publisherPurchaseId": grant_id, "purchaseTime": now})
            if flaw == "die-after-grant":
                # The answer is out, then the whole server is gone.
                self.wfile.flush()
                os._exit(3)

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def usage():
    """How to run the server and its flaws: the docstring's part from "Run it:"."""
    return __doc__[__doc__.index("Run it:"):].strip() + "\n"


def refuse(message):
    """One line on stderr saying what was wrong, and exit 2, as for a bad command line."""
    sys.stderr.write("server.py: %s; see python3 server.py --help\n" % message)
    sys.exit(2)


def is_url(text):
    """Whether `text` is an http:// or https:// URL with a host (and, if any, a valid port)."""
    try:
        parts = urllib.parse.urlsplit(text)
        return parts.scheme in ("http", "https") and bool(parts.hostname) and (parts.port or 0) >= 0
    except ValueError:
        return False


def take(args, name, what):
    """The value given to the option `name`, both taken out of `args`; None without it."""
    if name not in args:
        return None
    index = args.index(name)
    if index + 1 >= len(args):
        refuse("%s needs %s" % (name, what))
    value = args[index + 1]
    del args[index:index + 2]
    return value


def main():
    args = sys.argv[1:]
    if "--help" in args or "-h" in args:
        sys.stdout.write(usage())
        return
    flaw = take(args, "--flaw", "a NAME, one of %s" % ", ".join(sorted(FLAWS)))
    if flaw is not None and flaw not in FLAWS:
        refuse("unknown flaw %r; choose one of %s" % (flaw, ", ".join(sorted(FLAWS))))
    host = take(args, "--host", "an address to listen on, such as 127.0.0.1 or 0.0.0.0")
    if host is None:
        host = "127.0.0.1"
    clock_url = take(args, "--clock-url", "a URL, such as http://127.0.0.1:PORT/control/v1/clock")
    if clock_url is not None and not is_url(clock_url):
        refuse("--clock-url is an http:// or https:// URL, such as "
                   "http://127.0.0.1:PORT/control/v1/clock, not %r" % clock_url)
    if len(args) > 1:
        refuse("one PORT at most, not %s" % " ".join(repr(arg) for arg in args))
    port = 8080
    if args:
        text = args[0]
        if not text or any(c not in "0123456789" for c in text) or int(text) > 65535:
            refuse("PORT is a whole number from 0 to 65535 (0 picks a free one), not %r" % text)
        port = int(text)
    ledger = Ledger(grant_twice=(flaw == "grant-twice"), grant_after_refund=(flaw == "grant-after-refund"))
    work = None
    if flaw == "async-ledger":
        work = queue.Queue()
        threading.Thread(target=handle_later, args=(ledger, work), daemon=True).start()
    # The flaw one-connection: a server that holds one kept-alive connection at a time.
    kind = http.server.HTTPServer if flaw == "one-connection" else Server
    kind.allow_reuse_address = True
    if ":" in host:
        kind.address_family = socket.AF_INET6
    try:
        server = kind((host, port), make_handler(ledger, flaw, work, clock_url))
    except (OSError, OverflowError) as error:
        sys.stderr.write("server.py: cannot listen on %s:%d: %s\n" % (host, port, getattr(error, "strerror", None) or error))
        sys.exit(1)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
