#!/usr/bin/env python3
"""A Grant Award endpoint done right, in Python's standard library alone.

Appcharge POSTs a Grant Award Callback to the game's server once a player has paid.
This receiver shows what such an endpoint must do, and paylinks' tests hold it to it:

- verify the signature over the raw bytes received (never over re-serialized JSON):
  `signature: t=<ms>,v1=<hex>`, v1 = HMAC-SHA256(main key, t + "." + body), compared in
  constant time;
- refuse a `t` more than 5 minutes from now (a replayed callback);
- check the `x-publisher-token`;
- grant each order once: a retry, or two copies arriving at the same moment, get the
  same publisherPurchaseId, and only one grant;
- answer 200 {"publisherPurchaseId": ...}, and 4xx {"publisherErrorMessage": ...} for a
  request it refuses.

Run it:  python3 receiver.py [PORT]   (PORT 0 picks a free one; the port is printed)
Look:    GET /grants lists every grant by order id, and how many grants were made.
Keys:    RECEIVER_MAIN_KEY and RECEIVER_PUBLISHER_TOKEN, else paylinks' demo key and token.

`--flaw NAME` makes it wrong on purpose, to show what `paylinks check-award` catches:
any-signature, grant-twice, reserialize, no-time-check; and in its answer, numeric-id
(publisherPurchaseId as a number), status-ok ({"status": "ok"}), created (201 instead of
200), one-connection (one connection served at a time). Never use a flaw in production.
"""
import hashlib
import hmac
import http.server
import json
import os
import socketserver
import sys
import threading
import time

MAIN_KEY = os.environ.get("RECEIVER_MAIN_KEY", "paylinks-demo-main-key").encode()
PUBLISHER_TOKEN = os.environ.get("RECEIVER_PUBLISHER_TOKEN", "paylinks-demo-publisher-token")
WINDOW_MS = 5 * 60 * 1000
FLAWS = {
    "any-signature", "grant-twice", "reserialize", "no-time-check", "numeric-id", "status-ok", "created",
    "one-connection",
}


class Ledger:
    """The grants: one per order id, safe when copies of a callback race."""

    def __init__(self, grant_twice=False):
        self.lock = threading.Lock()
        self.grants = {}
        self.count = 0
        self.grant_twice = grant_twice

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


def make_handler(ledger, flaw):
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
            # An inspection aid for tests and for people: every grant, by order id.
            if self.path != "/grants":
                return self.answer(404, {"publisherErrorMessage": "POST awards; GET /grants lists them"})
            with ledger.lock:
                grants = dict(ledger.grants)
            return self.answer(200, {"grants": grants, "count": ledger.count})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.headers.get("x-publisher-token") != PUBLISHER_TOKEN:
                return self.answer(401, {"publisherErrorMessage": "unknown publisher token"})
            parts = signature_parts(self.headers.get("signature", ""))
            if parts is None:
                return self.answer(401, {"publisherErrorMessage": "missing or malformed signature"})
            t, v1 = parts
            signed = raw
            if flaw == "reserialize":
                # The flaw: hash the body as this server would write it, not as it came.
                signed = json.dumps(json.loads(raw), separators=(",", ":")).encode()
            expected = hmac.new(MAIN_KEY, str(t).encode() + b"." + signed, hashlib.sha256).hexdigest()
            if flaw != "any-signature" and not hmac.compare_digest(expected, v1):
                return self.answer(401, {"publisherErrorMessage": "signature mismatch"})
            now = int(time.time() * 1000)
            if flaw != "no-time-check" and abs(now - t) > WINDOW_MS:
                return self.answer(401, {"publisherErrorMessage": "signature too old or from the future"})
            try:
                award = json.loads(raw)
                order_id = award["orderId"]
            except (ValueError, KeyError, TypeError):
                return self.answer(400, {"publisherErrorMessage": "the body is not an award"})
            if not isinstance(order_id, str) or not order_id:
                return self.answer(400, {"publisherErrorMessage": "orderId must be a non-empty string"})
            grant_id = ledger.grant(order_id, award)
            if flaw == "numeric-id":
                return self.answer(200, {"publisherPurchaseId": int(grant_id.split("_")[1])})
            if flaw == "status-ok":
                return self.answer(200, {"status": "ok"})
            return self.answer(201 if flaw == "created" else 200, {"publisherPurchaseId": grant_id, "purchaseTime": now})

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    args = sys.argv[1:]
    flaw = None
    if "--flaw" in args:
        index = args.index("--flaw")
        flaw = args[index + 1] if index + 1 < len(args) else ""
        del args[index:index + 2]
        if flaw not in FLAWS:
            sys.exit("unknown flaw %r; choose one of %s" % (flaw, ", ".join(sorted(FLAWS))))
    port = int(args[0]) if args else 8080
    ledger = Ledger(grant_twice=(flaw == "grant-twice"))
    # The flaw one-connection: a server that holds one kept-alive connection at a time.
    kind = http.server.HTTPServer if flaw == "one-connection" else Server
    kind.allow_reuse_address = True
    server = kind(("127.0.0.1", port), make_handler(ledger, flaw))
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
