#!/usr/bin/env python3
"""The attack suite: hostile clients against `paylinks serve`, hostile award and events
endpoints behind it, and a stderr nobody reads, on loopback only. For every case, while
the attack runs, a normal client's Create Checkout Session must be answered within a
bound, the server's resident memory must stay within a bound, and at the end SIGTERM must
stop it with exit 0 within a bound. Each case is bounded in time and in count, and every
process and socket it opens is cleaned up.

An attack may also check what it was answered, and report what was wrong. Neither the log
nor the text callbacks on stdout may carry an escape, a C1 control or a bidirectional
control raw. The csrf and rebinding cases play a web page the developer opens: what it
must not manage (a change from another site, the studio's token read) is a problem of
the case.

Usage: python3 Tests/Attack/attack.py PAYLINKS_BINARY [--case NAME]
Prints one line per case (the normal request's median and worst latency, the server's
peak memory, how long SIGTERM took) and exits 1 when any case failed.
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

LATENCY_BOUND = 0.5  # seconds, the worst normal request while an attack runs
MEMORY_BOUND = 64 * 1024  # KiB of resident memory
# Cases whose attack is all in the memory it would take: tighter bounds.
# journal-start holds some 15,000 sessions, twice while it rewrites the journal; each holds
# its order's money terms and device (about 190 bytes more a session, 6 MiB in all), and
# the store keys it by its identifiers packed in words rather than by their strings, so
# that a full store forgets without hashing strings again (7 MiB more in all: 112 MiB
# measured in CI, 105 MiB before).
MEMORY_BOUNDS = {"crlf-flood": 32 * 1024, "large-sessions": 40 * 1024, "journal-start": 118 * 1024,
                 # 24 orders named with 900 KB each are 22 MB the sandbox keeps, before any answer.
                 "big-answers": 128 * 1024, "full-disk-backlog": 160 * 1024}
# The server's options for a case. large-sessions keeps 8 MiB of what sessions sent, not
# the default 128 MiB, which a fast machine fills past any bound below it within the 3 s:
# a server that forgets past its budget stays near 25 MiB, one that kept every session of
# 512 KiB passes 40 MiB once about fifty have come (63 MiB in 3 s on the development machine).
SERVER_OPTIONS = {
    "large-sessions": ["--session-budget", "8"],
    # Retries 10 s (awards) and 5 min (V1 events) apart, in real time: the stop comes during the pauses.
    "sigterm-during-pauses": ["--award-wait", "real", "--events-wait", "real", "--events-version", "v1"],
}
STOP_BOUND = 15.0  # seconds from SIGTERM to exit; an award attempt may take 10 s
# Bytes of a reporting query's 400: twenty reasons and how many more, however many keys.
REASONS_ANSWER_BOUND = 16 * 1024
# What must never reach the log or stdout raw: ESC, C1 controls (NEL, CSI) and
# bidirectional controls, UTF-8 encoded.
RAW_CONTROLS = [b"\x1b"] + [c.encode() for c in "\u0085\u009b\u061c\u200f\u202e\u2066"]
# Cases with no attempt under way at the stop, only pauses and the log: a tighter bound.
STOP_BOUNDS = {"sigterm-during-pauses": 2.0, "stderr-pipe": 2.0}
# Cases whose server's stderr is a pipe nobody reads until SIGTERM, as a CI job's
# `Popen(stderr=PIPE)` read only at the end, or `| tee` into a reader that is stuck.
UNDRAINED = {"stderr-pipe"}
ATTACK_SECONDS = 3.0
# How a normal request over LATENCY_BOUND is reported.
SLOW = "a normal request took "
TOKEN = "paylinks-demo-publisher-token"
BODY = {
    "priceDetails": {"price": 499, "currency": "USD"},
    "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
    "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
    "customer": {"id": "cust_98765"},
    "countryCode2": "US",
}
HEADERS = {"Content-Type": "application/json", "x-publisher-token": TOKEN}


def request(port, method, path, body=None, headers=None, timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=5)


class Server:
    """`paylinks serve` on a free port, its stderr collected; with `drain` False, nobody reads
    its stderr past the line that says where it listens until SIGTERM."""

    def __init__(self, binary, extra=(), drain=True):
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--seed", "1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PAYLINKS_PUBLISHER_TOKEN": ""})
        # Stdout is read from the start: a start that grants awards writes their callbacks
        # before it says where it listens.
        self.output = bytearray()
        self.readers = [None, threading.Thread(target=self._read, args=(self.process.stdout, self.output), daemon=True)]
        self.readers[1].start()
        line = b""
        started = time.time()
        deadline = started + JOURNAL_START_SECONDS
        while b"SIGINT or SIGTERM stops it" not in line:
            if time.time() > deadline or self.process.poll() is not None:
                raise RuntimeError("serve did not start: %r" % line)
            line += self.process.stderr.read1(4096)
        self.started_in = time.time() - started
        self.port = int(line.split(b"http://127.0.0.1:")[1].split(b";")[0].split(b" ")[0])
        self.log = bytearray(line)
        self.readers[0] = threading.Thread(target=self._read, args=(self.process.stderr, self.log), daemon=True)
        # The log's reader starts at SIGTERM when stderr is not drained.
        if drain:
            self.readers[0].start()

    @staticmethod
    def _read(stream, kept):
        """Drains `stream` so that the server never waits on it, keeping its first 4 MiB."""
        while True:
            chunk = stream.read1(65536)
            if not chunk:
                return
            if len(kept) < (4 << 20):
                kept += chunk

    def rss(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        """SIGTERM; the exit status and the seconds it took, or None when it did not stop.
        An undrained stderr is read from the signal on, as `communicate()` would."""
        started = self.stopped_at = time.time()
        self.process.send_signal(signal.SIGTERM)
        if self.readers[0].ident is None:
            self.readers[0].start()
        try:
            status = self.process.wait(timeout=STOP_BOUND)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None, STOP_BOUND
        for reader in self.readers:
            reader.join(timeout=2)
        return status, time.time() - started


class AwardEndpoint:
    """A hostile award endpoint: `behaviour(connection)` runs for each connection."""

    def __init__(self, behaviour):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(2048)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.behaviour = behaviour
        self.done = threading.Event()
        self.connections = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while not self.done.is_set():
            try:
                connection, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self.connections.append(connection)
            threading.Thread(target=self._run, args=(connection,), daemon=True).start()

    def _run(self, connection):
        try:
            connection.settimeout(1)
            self.behaviour(connection, self.done)
        except OSError:
            pass

    def url(self, path="/award"):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def close(self):
        self.done.set()
        self.listener.close()
        for connection in self.connections:
            try:
                connection.close()
            except OSError:
                pass


class Refusing:
    """An endpoint that refuses every request at once with a 500, which is retried, noting
    when each came."""

    def __init__(self):
        self.arrivals = []
        self.first = threading.Event()

    def __call__(self, connection, done):
        connection.settimeout(None)
        while not done.is_set():
            if read_request(connection) is None:
                return
            self.arrivals.append(time.time())
            self.first.set()
            connection.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(rest) < length:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        rest += chunk
    return head


# Hostile clients: each runs until `stop` is set, bounded in connections.

def slowloris(port, stop):
    sockets = [connect(port) for _ in range(100)]
    for s in sockets:
        s.sendall(b"POST /checkout/v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    while not stop.is_set():
        for s in sockets:
            try:
                s.sendall(b"X-A: b\r\n")
            except OSError:
                pass
        stop.wait(0.5)
    for s in sockets:
        s.close()


def crlf_flood(port, stop):
    sockets = [connect(port) for _ in range(100)]
    while not stop.is_set():
        for s in sockets:
            try:
                s.sendall(b"\r\n" * 512)
            except OSError:
                pass
        stop.wait(0.01)
    for s in sockets:
        s.close()


def pipeliner(port, stop):
    s = connect(port)
    s.setblocking(False)
    one = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    while not stop.is_set():
        try:
            s.send(one * 200)
        except (BlockingIOError, OSError):
            stop.wait(0.01)
    s.close()


def many_connections(port, stop):
    sockets = []
    for _ in range(1000):
        try:
            sockets.append(connect(port))
        except OSError:
            break
    stop.wait(ATTACK_SECONDS)
    for s in sockets:
        s.close()


def large_sessions(port, stop):
    body = dict(BODY)
    body["offer"] = dict(BODY["offer"], name="n" * (1 << 19))
    encoded = json.dumps(body)
    count = 0
    while not stop.is_set() and count < 600:
        request(port, "POST", "/checkout/v1/session", encoded, HEADERS)
        count += 1


def hostile_bodies(port, stop):
    huge = dict(BODY, offer=dict(BODY["offer"], pricePointMetadata=9223372036854775807))
    # An offer's name that would turn the text callbacks' next line into a control
    # sequence, a new line, and text shown right to left.
    named = dict(BODY, offer=dict(BODY["offer"], name="Gold\u009b31m\u0085\u202elive\u2066"))
    forged = {"choice": "pay", "paymentMethod": "Visa\nawards granted: all\x1b[2J"}
    while not stop.is_set():
        request(port, "POST", "/checkout/v1/session", json.dumps(huge), HEADERS)
        status, data = request(port, "POST", "/checkout/v1/session", json.dumps(named), HEADERS)
        purchase = json.loads(data)["purchaseId"]
        request(port, "POST", "/control/v1/sessions/%s/complete" % purchase, json.dumps(forged),
                {"Content-Type": "application/json"})
        for raw in [b"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", b"POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\nhello",
                    b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"]:
            with connect(port) as s:
                s.sendall(raw)
                s.recv(4096)


def unknown_report_keys(port, stop):
    """Orders queries with 10,000 keys the report does not have: each answer lists twenty
    reasons and how many more, in a few kilobytes."""
    query = {"k%d" % number: number for number in range(10000)}
    query.update(startDate="2024-06-12", endDate="2024-06-12")
    encoded = json.dumps(query)
    count = 0
    while not stop.is_set() and count < 200:
        status, data = request(port, "POST", "/reporting/reports/orders", encoded, HEADERS, timeout=10)
        count += 1
        if status != 400 or len(data) > REASONS_ANSWER_BOUND:
            return ["an orders query with 10,000 unknown keys got %d with %d bytes" % (status, len(data))]
    return []


def log_burst(port, stop):
    """Requests whose log lines are 8 KiB each (the path), over one connection: megabytes of log a second."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    path = "/" + "a" * 8000
    try:
        for _ in range(2000):
            if stop.is_set():
                return
            connection.request("GET", path)
            connection.getresponse().read()
    finally:
        connection.close()


def paid_sessions(count):
    def attack(port, stop):
        for _ in range(count):
            if stop.is_set():
                return
            status, data = request(port, "POST", "/checkout/v1/session", json.dumps(BODY), HEADERS)
            purchase = json.loads(data)["purchaseId"]
            request(port, "POST", "/control/v1/sessions/%s/complete" % purchase, '{"choice": "pay"}',
                    {"Content-Type": "application/json"})
    return attack


class Breach(Exception):
    """What a web page managed that it must not: the case's problem, in a line."""


def paid_order(port, state, seconds=10):
    """Creates a session, pays it through the control API and waits (for at most `seconds`)
    until its award has ended in `state` and the endpoint has had the attempts it will get;
    the session's purchase id and order id, and its delivery's id."""
    status, data = request(port, "POST", "/checkout/v1/session", json.dumps(BODY), HEADERS)
    purchase = json.loads(data)["purchaseId"]
    status, data = request(port, "POST", "/control/v1/sessions/%s/complete" % purchase, '{"choice": "pay"}',
                           {"Content-Type": "application/json"})
    order = json.loads(data)["orderId"]
    deadline = time.time() + seconds
    while True:
        status, data = request(port, "GET", "/control/v1/deliveries?purchaseId=%s" % purchase)
        listed = json.loads(data)["deliveries"]
        status, data = request(port, "GET", "/control/v1/sessions/%s" % purchase)
        if listed and json.loads(data)["state"] == state:
            return purchase, order, listed[0]["id"]
        if time.time() > deadline:
            raise Breach("the paid order never reached %s" % state)
        time.sleep(0.05)


def csrf():
    """A page of another site sends forms and fetches that need no preflight at every route
    that changes the sandbox; each must get 403 (415 for a fetch that names no page), and
    the award endpoint, which refuses every award so that the order can be refunded,
    disputed and its award retried, must receive nothing after the payment's attempts."""
    received = []

    def endpoint(connection, done):
        while not done.is_set():
            if read_request(connection) is None:
                return
            received.append(1)
            connection.sendall(b"HTTP/1.1 500 Refused\r\nContent-Length: 2\r\n\r\n{}")

    def attack(port, stop):
        purchase, order, delivery = paid_order(port, "charge_failed")
        status, data = request(port, "POST", "/checkout/v1/session", json.dumps(BODY), HEADERS)
        fresh = json.loads(data)
        before = len(received)
        form, text, json_type = ("application/x-www-form-urlencoded", "text/plain", "application/json")
        changes = [
            ("/orders/%s/refund" % purchase, form, "outcome=refunded"),
            ("/orders/%s/dispute" % purchase, text, "outcome=lost"),
            ("/orders/%s/retry-award" % purchase, form, ""),
            ("/deliveries/%s/replay" % delivery, form, "resign=true"),
            ("/checkout/%s" % fresh["checkoutSessionToken"], form, "choice=pay&paymentMethod=Visa"),
            ("/control/v1/sessions/%s/refund" % purchase, text, '{"outcome": "refunded"}'),
            ("/control/v1/sessions/%s/dispute" % purchase, text, '{"outcome": "lost"}'),
            ("/control/v1/sessions/%s/retry-award" % purchase, None, ""),
            ("/control/v1/deliveries/%s/replay" % delivery, None, ""),
            ("/control/v1/sessions/%s/complete" % fresh["purchaseId"], text, '{"choice": "pay"}'),
            ("/checkout/v3/cancel", text, ""),
            ("/checkout/api/v1/order/%s/refund" % order, None, ""),
            ("/checkout/v1/session", text, json.dumps(BODY)),
        ]
        sources = [{"Origin": "http://evil.example"}, {"Origin": "null"},
                   {"Referer": "http://evil.example/attack.html"}, {"Origin": "http://127.0.0.1:1"}]
        while True:
            for path, kind, body in changes:
                for source in sources:
                    # The JSON a fetch could send only after a preflight, too: the source alone refuses it.
                    for sent_type in dict.fromkeys([kind, json_type]):
                        headers = dict(source, **({"Content-Type": sent_type} if sent_type else {}))
                        status, _ = request(port, "POST", path, body, headers)
                        if status != 403:
                            raise Breach("POST %s from %s as %s: %d, not 403" % (path, source, sent_type, status))
                # Without Origin and Referer, as an old browser or a no-referrer page sends it.
                status, _ = request(port, "POST", path, body, {"Content-Type": kind} if kind else {})
                expected = {"/orders": 403, "/deliveries": 403, "/control": 415}.get("/" + path.split("/")[1])
                if path.startswith("/checkout/") and path.count("/") == 2:
                    expected = 403
                if expected is not None and status != expected:
                    raise Breach("POST %s without a source: %d, not %d" % (path, status, expected))
            if stop.is_set():
                break
        for purchase_id, state in [(purchase, "charge_failed"), (fresh["purchaseId"], "created")]:
            status, data = request(port, "GET", "/control/v1/sessions/%s" % purchase_id)
            if json.loads(data)["state"] != state:
                raise Breach("%s is %s, not %s" % (purchase_id, json.loads(data)["state"], state))
        if len(received) != before:
            raise Breach("the award endpoint received %d requests" % (len(received) - before))

    return attack, endpoint


def rebinding():
    """A page that pointed a name of its own at 127.0.0.1 reads the sandbox by that name: each
    request gets 421 and no answer holds the publisher token, which the sandbox's own views
    show masked."""
    def endpoint(connection, done):
        while not done.is_set():
            if read_request(connection) is None:
                return
            connection.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: 31\r\n\r\n{"publisherPurchaseId":"grant"}')

    def attack(port, stop):
        purchase, _, delivery = paid_order(port, "charge_succeed")
        paths = ["/control/v1/deliveries", "/control/v1/deliveries/%s" % delivery, "/orders/%s" % purchase, "/",
                 "/control/v1/sessions/%s" % purchase]
        for path in paths:
            status, data = request(port, "GET", path)
            if status != 200 or TOKEN.encode() in data:
                raise Breach("GET %s: %d%s" % (path, status, ", the token shown" if TOKEN.encode() in data else ""))
        hosts = ["rebind.evil.example:%d" % port, "127.0.0.1.evil.example:%d" % port, "localhost.evil.example",
                 "evil.example"]
        while True:
            for host in hosts:
                for path in paths:
                    status, data = request(port, "GET", path, None, {"Host": host})
                    if status != 421 or TOKEN.encode() in data:
                        raise Breach("GET %s with Host %s: %d%s" % (
                            path, host, status, ", the token shown" if TOKEN.encode() in data else ""))
            if stop.is_set():
                break

    return attack, endpoint


# Hostile award endpoints.

def silent(connection, done):
    while not done.is_set():
        try:
            if not connection.recv(65536):
                return
        except socket.timeout:
            continue


def endless_continue(connection, done):
    read_request(connection)
    connection.settimeout(None)
    while not done.is_set():
        connection.sendall(b"HTTP/1.1 100 Continue\r\n\r\n" * 100)


def stray_answers(connection, done):
    while not done.is_set():
        if read_request(connection) is None:
            return
        connection.sendall(b'HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\n{}'
                           b'HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n{"publisherPurchaseId":"x"}')


def forged_status(connection, done):
    while not done.is_set():
        if read_request(connection) is None:
            return
        connection.sendall(b"HTTP/1.1 500 \x1b[32mgranted as x\nawards granted\r\nContent-Length: 0\r\n\r\n")


# What a case that needs more than the port reads: the binary and the running server.
CURRENT = {}


def prlimit_file_size(pid, size):
    """Sets the largest file `pid` may write (None: no limit), as a full disk would."""
    value = "unlimited" if size is None else str(size)
    subprocess.run(["prlimit", "--pid", str(pid), "--fsize=%s:unlimited" % value], check=True)


def full_disk():
    """The disk fills and empties again and again while sessions are created and paid: every
    change the sandbox could not keep is 503 and sends no award, the journal is never left
    with half a record, and once the sandbox is started again on its directory every change
    it answered 2xx for is there."""
    grants = []

    def endpoint(connection, done):
        while not done.is_set():
            if read_request(connection) is None:
                return
            grants.append(1)
            body = b'{"publisherPurchaseId":"g%d"}' % len(grants)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    def attack(port, stop):
        server, journal = CURRENT["server"], CURRENT["data"] + "/sandbox.jsonl"
        answered = CURRENT.setdefault("answered", {})
        paid = 0
        rounds = 0
        while not stop.is_set() and rounds < 200:
            rounds += 1
            full = rounds % 2 == 0
            prlimit_file_size(server.process.pid, os.path.getsize(journal) + 40 if full else None)
            # What the journal holds once the limit holds: a record written before it took
            # hold (a normal request's, an award's outcome) counts as kept before the round.
            size = settled_size(journal) if full else None
            status, data = request(port, "POST", "/checkout/v1/session", json.dumps(BODY), HEADERS)
            if status == 201:
                answered[json.loads(data)["purchaseId"]] = "created"
            elif not (full and status == 503):
                raise Breach("a session was answered %d with the disk %s" % (status, "full" if full else "free"))
            created = [purchase for purchase, state in answered.items() if state == "created"]
            if not created:
                continue
            status, data = request(port, "POST", "/control/v1/sessions/%s/complete" % created[0],
                                   '{"choice": "pay"}', {"Content-Type": "application/json"})
            if status == 200:
                answered[created[0]] = "paid"
                paid += 1
            elif not (full and status == 503):
                raise Breach("a payment was answered %d with the disk %s" % (status, "full" if full else "free"))
            if full and settled_size(journal) != size:
                raise Breach("the journal went from %d to %d bytes on a full disk" % (size, os.path.getsize(journal)))
        prlimit_file_size(server.process.pid, None)
        deadline = time.time() + 10
        while len(grants) < paid and time.time() < deadline:
            time.sleep(0.02)
        if len(grants) != paid:
            raise Breach("%d awards reached the game's server for %d payments answered 200" % (len(grants), paid))
        CURRENT["figures"] = "; %d rounds, %d payments kept, %d grants" % (rounds, paid, len(grants))
        CURRENT["finished"] = True

    return attack, endpoint


def settled_size(journal, seconds=2.0):
    """The journal's size once it ends with a whole record: an append the full disk cut short
    is undone by the sandbox before it answers, but one of its own (an award's outcome) may be
    caught between its short write and its undoing. Waits for that, for at most `seconds`."""
    deadline = time.time() + seconds
    while True:
        with open(journal, "rb") as file:
            size = file.seek(0, os.SEEK_END)
            file.seek(max(0, size - 1))
            if size == 0 or file.read(1) == b"\n" or time.time() > deadline:
                return size
        # A pause between the polls of a bounded wait: the loop ends on its condition or at
        # its deadline, and the caller judges what it returns.
        time.sleep(0.01)


def full_disk_backlog():
    """Orders named with 900 KB each are paid, then the disk fills while their awards come
    back: what the sandbox learns waits in memory, tens of megabytes of it, and a normal
    client's request (503, since a session cannot be kept) must still be answered in time,
    each not paying again for all that waits. Once there is room, all of it is written."""
    started = threading.Event()
    answered = []
    all_answered = threading.Event()

    def endpoint(connection, done):
        while not done.is_set():
            if read_request(connection) is None:
                return
            started.wait(10)
            time.sleep(0.3)  # the game's server takes its time: the awards end while the disk is full
            body = b'{"publisherPurchaseId":"g"}'
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            answered.append(True)
            if len(answered) >= 24:
                all_answered.set()

    def attack(port, stop):
        server, journal = CURRENT["server"], CURRENT["data"] + "/sandbox.jsonl"
        body = json.dumps(dict(BODY, offer=dict(BODY["offer"], name="n" * 900_000)))
        purchases = []
        for _ in range(24):
            status, data = request(port, "POST", "/checkout/v1/session", body, HEADERS, timeout=10)
            purchases.append(json.loads(data)["purchaseId"])
        # The game's server holds each award until the disk is full.
        for purchase in purchases:
            request(port, "POST", "/control/v1/sessions/%s/complete" % purchase, '{"choice": "pay"}',
                    {"Content-Type": "application/json"})
        # No file of the sandbox's may grow at all: a rewrite's new journal either.
        prlimit_file_size(server.process.pid, 0)
        started.set()
        # The disk stays full past the last award's answer for longer than the pause after a
        # failed write, with the normal client asking all along. This sleep is how long the
        # attack lasts, not a wait for a result: what is checked afterwards (every award
        # ends granted, within 15 s of polling) does not depend on what happens within it.
        if not all_answered.wait(15):
            raise Breach("the awards were not all sent within 15 s")
        time.sleep(FULL_DISK_SECONDS)
        CURRENT["window"].set()
        prlimit_file_size(server.process.pid, None)
        deadline = time.time() + 15
        while time.time() < deadline:
            states = [json.loads(request(port, "GET", "/control/v1/sessions/%s" % p)[1])["state"] for p in purchases]
            if all(state == "charge_succeed" for state in states):
                break
            time.sleep(0.1)
        else:
            raise Breach("awards did not all end granted: %s" % sorted(set(states)))
        # Each order's exact state must come back after a restart: its award's outcome too.
        CURRENT["answered"] = {purchase: "charge_succeed" for purchase in purchases}
        CURRENT["figures"] = "; %d awards of orders of 900 KB waited for room" % len(purchases)
        CURRENT["finished"] = True

    return attack, endpoint


def check_restart(binary, problems):
    """Starts the sandbox again on the case's directory: it must start, and every change it
    answered for must be there."""
    answered = CURRENT.get("answered", {})
    try:
        again = Server(binary, ["--data", CURRENT["data"]])
    except RuntimeError as error:
        problems.append("the sandbox did not start again on its directory: %s" % error)
        return
    try:
        if b"cut short" in again.log:
            problems.append("the journal ended in a record cut short")
        for purchase, state in answered.items():
            status, data = request(again.port, "GET", "/control/v1/sessions/%s" % purchase)
            got = json.loads(data).get("state") if status == 200 else "missing (%d)" % status
            # A state code ("charge_succeed") is compared exactly; "created" and "paid" say
            # only whether the order was paid, whose award may still have been under way.
            exact = "_" in state
            if got != state if exact else (state == "created") != (got == "created"):
                problems.append("%s was answered %s, and after a restart is %s" % (purchase, state, got))
                break
    finally:
        again.stop()


def journal_numbers(port, stop):
    """Journals whose records hold numbers the sandbox never writes (the largest and
    smallest integers, where it writes an index, a time, a price, a delivery's id): each
    start must end with one error line and exit 65, never a crash, within a second or two."""
    binary = CURRENT["binary"]
    header = '{"format":"paylinks-sandbox","version":1,"seed":"1"}\n'
    session = ('{"session":{"index":0,"token":"0123456789abcdef0123456789abcdef","purchaseId":"pr_x",'
               '"orderId":"1","created":1000,"offerName":"n","offerSku":"s","items":[],"price":499,'
               '"currency":"USD","customerId":"c","country":"US","state":"created","paymentMethod":"",'
               '"date":0,"eventCount":1}}')
    delivery = ('{"delivery":{"id":"dl_1","kind":"award","purchaseId":"pr_x","name":"award","url":"u",'
                '"succeeded":true,"body":"{}","attempts":[{"number":1,"sentAt":0,"sentAfter":0,'
                '"milliseconds":1,"request":{"headers":[]}}]}}')
    extremes = ["9223372036854775807", "-9223372036854775808"]
    hostile = []
    for value in extremes:
        for member in ['"index":0', '"created":1000', '"price":499', '"date":0', '"eventCount":1']:
            hostile.append(session.replace(member, member.split(":")[0] + ":" + value))
        hostile.append(session.replace('"price":499', '"price":499,"pricePointMetadata":' + value))
        hostile.append(delivery.replace('"milliseconds":1', '"milliseconds":' + value))
        hostile.append(delivery.replace('"sentAt":0', '"sentAt":' + value))
    hostile.append(delivery.replace('"dl_1"', '"dl_9223372036854775807"'))
    slowest = 0
    for record in hostile:
        if stop.is_set():
            break
        directory = tempfile.mkdtemp(prefix="paylinks-attack-journal-")
        try:
            with open(directory + "/sandbox.jsonl", "w") as journal:
                journal.write(header + record + "\n")
            started = time.time()
            outcome = subprocess.run([binary, "serve", "--port", "0", "--data", directory],
                                     capture_output=True, timeout=10)
            slowest = max(slowest, time.time() - started)
            lines = outcome.stderr.decode(errors="replace").splitlines()
            if outcome.returncode != 65 or len(lines) != 1 or not lines[0].startswith("error: "):
                raise Breach("a journal with %s: exit %d, %r" % (record[:60], outcome.returncode, lines[:2]))
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    CURRENT["figures"] = "; %d hostile journals refused, the slowest in %.2f s" % (len(hostile), slowest)


JOURNAL_RECORDS = 100_000


def write_big_journal(directory):
    """A journal of JOURNAL_RECORDS records (about 46 MB) as the sandbox writes them, every
    session recorded twice (created, then as it ended): one in ten paid, the rest declined."""
    now = int(time.time()) * 1000
    with open(directory + "/sandbox.jsonl", "w") as journal:
        journal.write('{"format":"paylinks-sandbox","version":1,"seed":"1"}\n')
        for index in range(JOURNAL_RECORDS // 2):
            session = {
                "index": index, "token": "%032x" % index, "purchaseId": "pr_big%d" % index,
                "orderId": str(1000000000 + index), "created": now, "offerName": "Starter Pack",
                "offerSku": "starter_pack_001", "items": [{"name": "Gems", "sku": "gem_01", "quantity": "100"}],
                "price": 499, "currency": "USD", "customerId": "cust_%d" % index, "email": "player@example.com",
                "country": "DE", "metadata": {"campaign": "spring", "level": index % 50}, "pricePointMetadata": 499,
                "state": "created", "paymentMethod": "", "date": 0, "eventCount": 1}
            journal.write(json.dumps({"session": session}, separators=(",", ":")) + "\n")
            if index % 10 == 0:
                session.update(state="charge_succeed", paymentMethod="Visa", date=now // 1000, eventCount=3,
                               life={"granted": True, "actions": []})
            else:
                session.update(state="payment_failed", paymentMethod="Visa", date=now // 1000, eventCount=2)
            journal.write(json.dumps({"session": session}, separators=(",", ":")) + "\n")


def journal_start(port, stop):
    """The sandbox started on a journal of 100,000 records: it must be listening within a
    bound, hold a fraction of the journal in memory, keep every paid order, and answer a
    normal client in time while it rewrites the journal."""
    server = CURRENT["server"]
    with open("/proc/%d/status" % server.process.pid) as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    status, data = request(port, "GET", "/control/v1/sessions/pr_big0")
    if status != 200 or json.loads(data)["state"] != "charge_succeed":
        raise Breach("the first paid order was not kept: %d %r" % (status, data[:80]))
    size = os.path.getsize(CURRENT["data"] + "/sandbox.jsonl")
    CURRENT["figures"] = "; %d records (%.0f MB) read in %.1f s, peak memory at start %d KiB" % (
        JOURNAL_RECORDS, size / 1e6, server.started_in, peak)
    if peak > JOURNAL_START_MEMORY:
        raise Breach("starting on the journal took %d KiB" % peak)
    if server.started_in > JOURNAL_START_SECONDS:
        raise Breach("starting on the journal took %.1f s" % server.started_in)
    CURRENT["finished"] = True


def big_answers(port, stop):
    """Orders whose offers are named with 900 KB each, then both reports and the
    dashboard asked for four times each, pipelined on one connection and read at full speed:
    every answer must come whole (none cut off), while a normal client is answered in time
    and memory stays bounded."""
    name = "n" * 900_000
    body = dict(BODY, offer=dict(BODY["offer"], name=name))
    # Bounded by its count, not by the stop: the answers are asked for however long this takes.
    for _ in range(24):
        status, data = request(port, "POST", "/checkout/v1/session", json.dumps(body), HEADERS, timeout=10)
        purchase = json.loads(data)["purchaseId"]
        request(port, "POST", "/control/v1/sessions/%s/complete" % purchase, '{"choice": "pay"}',
                {"Content-Type": "application/json"})
    window = "startDate=1970-01-01&endDate=9999-12-31"
    orders = json.dumps({"startDate": "1970-01-01", "endDate": "9999-12-31", "recordLimit": 1000})
    one = (b"GET /reporting/financial-data/transactions?" + window.encode() + b"&limit=10000 HTTP/1.1\r\n"
           b"Host: 127.0.0.1\r\nx-publisher-token: " + TOKEN.encode() + b"\r\n\r\n"
           b"POST /reporting/reports/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"x-publisher-token: " + TOKEN.encode() + b"\r\nContent-Length: " + str(len(orders)).encode()
           + b"\r\n\r\n" + orders.encode()
           + b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    largest = 0
    with connect(port) as s:
        s.settimeout(10)
        s.sendall(one * 4)
        reader = s.makefile("rb")
        for _ in range(12):
            status_line = reader.readline()
            length = 0
            while True:
                line = reader.readline()
                if line in (b"\r\n", b""):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            data = reader.read(length)
            if not status_line.startswith(b"HTTP/1.1 200") or len(data) != length:
                raise Breach("a pipelined answer came %r with %d of %d bytes" % (status_line[:20], len(data), length))
            largest = max(largest, len(data))
    CURRENT["figures"] = "; 12 pipelined answers whole, the largest %.1f MB" % (largest / 1e6)
    CURRENT["finished"] = True


# Each case: what builds its attack and its award endpoint's behaviour, called afresh for
# each run, so that a case run again starts with nothing the first run counted.
CASES = {
    "slowloris": lambda: (slowloris, None),
    "crlf-flood": lambda: (crlf_flood, None),
    "pipeliner": lambda: (pipeliner, None),
    "connections": lambda: (many_connections, None),
    "large-sessions": lambda: (large_sessions, None),
    "hostile-bodies": lambda: (hostile_bodies, None),
    "unknown-report-keys": lambda: (unknown_report_keys, None),
    "silent-award-endpoint": lambda: (paid_sessions(1100), silent),
    "endless-continue": lambda: (paid_sessions(20), endless_continue),
    "stray-answers": lambda: (paid_sessions(50), stray_answers),
    "forged-status-line": lambda: (paid_sessions(20), forged_status),
    "stderr-pipe": lambda: (log_burst, None),
    "sigterm-during-pauses": lambda: (paid_sessions(3), Refusing()),
    "csrf": csrf,
    "rebinding": rebinding,
    "full-disk": full_disk,
    "journal-numbers": lambda: (journal_numbers, None),
    "big-answers": lambda: (big_answers, None),
    "journal-start": lambda: (journal_start, None),
    "full-disk-backlog": full_disk_backlog,
}
# Cases whose sandbox keeps its data, in a directory of their own; and what such a case
# checks once the sandbox has stopped.
DATA_CASES = {"full-disk", "journal-start", "full-disk-backlog"}
# What a case's directory holds before the sandbox starts on it.
PREPARE = {"journal-start": write_big_journal}
# The journal-start case's bounds: its peak memory in KiB, and seconds until it listens
# (the debug build make attack runs reads 2 to 5 MB of journal a second on a shared machine).
JOURNAL_START_MEMORY = 96 * 1024
JOURNAL_START_SECONDS = 60
AFTER = {"full-disk": check_restart, "full-disk-backlog": check_restart}
# Statuses the normal client may get: a full disk answers 503, and nothing happens.
NORMAL_STATUSES = {"full-disk": {201, 503}, "full-disk-backlog": {201, 503}}
# Cases whose normal client asks until the attack says its condition has ended
# (CURRENT["window"]), however long its setting up took: a fast sandbox must not finish
# setting up the full disk only once the normal client has stopped asking.
WINDOWS = {"full-disk-backlog"}
# How long the full-disk backlog keeps the disk full after the last award's answer: past
# the sandbox's pause of 1 s after a failed write.
FULL_DISK_SECONDS = 2.0
# Cases whose attack must run to its end, whatever the time: what they check comes last.
MUST_FINISH = {"big-answers", "journal-start", "full-disk-backlog", "full-disk"}
# Cases with an events endpoint behind the server too: its behaviour.
EVENTS_BEHAVIOURS = {"sigterm-during-pauses": Refusing}


def run_case(binary, name):
    attack, behaviour = CASES[name]()
    CURRENT.clear()
    CURRENT["binary"] = binary
    CURRENT["window"] = threading.Event()
    if name in DATA_CASES:
        CURRENT["data"] = tempfile.mkdtemp(prefix="paylinks-attack-data-")
        if name in PREPARE:
            PREPARE[name](CURRENT["data"])
    endpoint = AwardEndpoint(behaviour) if behaviour else None
    events = AwardEndpoint(EVENTS_BEHAVIOURS[name]()) if name in EVENTS_BEHAVIOURS else None
    server = Server(
        binary, (["--award-url", endpoint.url()] if endpoint else [])
        + (["--events-url", events.url("/events")] if events else [])
        + (["--data", CURRENT["data"]] if "data" in CURRENT else [])
        + SERVER_OPTIONS.get(name, []), drain=name not in UNDRAINED)
    CURRENT["server"] = server
    stop = threading.Event()
    problems = []

    def attacker():
        try:
            problems.extend(attack(server.port, stop) or [])
        except Breach as breach:
            problems.append(str(breach))
        except OSError as error:
            # An attacker the server refuses or drops is the server doing its job.
            pass
        except Exception as error:  # noqa: BLE001 - reported, not raised
            problems.append("the attacker broke: %r" % error)

    thread = threading.Thread(target=attacker, daemon=True)
    thread.start()
    latencies = []
    peak = 0
    started = time.time()
    while time.time() - started < ATTACK_SECONDS or (
            name in WINDOWS and not CURRENT["window"].is_set() and thread.is_alive() and time.time() - started < 60):
        peak = max(peak, server.rss())
        begin = time.time()
        try:
            status, _ = request(server.port, "POST", "/checkout/v1/session", json.dumps(BODY), HEADERS, timeout=5)
            if status not in NORMAL_STATUSES.get(name, {201}):
                problems.append("a normal request got %d" % status)
        except OSError as error:
            problems.append("a normal request failed: %s" % error)
        latencies.append(time.time() - begin)
        # Paces the normal client at about 20 requests a second; nothing waits on it.
        time.sleep(0.05)
    stop.set()
    peak = max(peak, server.rss())
    # Endpoints that note their requests: the stop comes once each has refused one, so
    # that a retry's pause is under way.
    refusing = [e.behaviour for e in (endpoint, events) if e and isinstance(e.behaviour, Refusing)]
    for behaviour in refusing:
        if not behaviour.first.wait(5):
            problems.append("no delivery came within 5 s")
    # What such a case checks comes last, with the sandbox still up.
    if name in MUST_FINISH:
        thread.join(timeout=60)
    status, took = server.stop()
    thread.join(timeout=10)
    for e in (endpoint, events):
        if e:
            e.close()
    late = [t - server.stopped_at for behaviour in refusing for t in behaviour.arrivals if t > server.stopped_at]
    if late:
        problems.append("a retry started %.1f s after SIGTERM" % late[0])
    log = bytes(server.log)
    output = bytes(server.output)
    latencies.sort()
    median, worst = latencies[len(latencies) // 2], latencies[-1]
    if worst > LATENCY_BOUND:
        problems.append(SLOW + "%.0f ms" % (worst * 1000))
    if peak > MEMORY_BOUNDS.get(name, MEMORY_BOUND):
        problems.append("resident memory reached %d KiB" % peak)
    if status != 0:
        problems.append("SIGTERM: %s" % ("no exit within %.0f s" % STOP_BOUND if status is None else "exit %d" % status))
    elif took > STOP_BOUNDS.get(name, STOP_BOUND):
        problems.append("SIGTERM took %.1f s" % took)
    figures = CURRENT.get("figures", "")
    if name in MUST_FINISH and not CURRENT.get("finished"):
        problems.append("the attack did not finish")
    if name in AFTER:
        AFTER[name](binary, problems)
    if "data" in CURRENT:
        shutil.rmtree(CURRENT["data"], ignore_errors=True)
    if name in UNDRAINED:
        dropped = re.search(rb"(\d+) log lines? dropped while standard error was not being read", log)
        figures = "; %s log lines dropped" % (dropped.group(1).decode() if dropped else "no")
        if not dropped:
            problems.append("no line said how many log lines were dropped")
        if b"paylinks sandbox stopped\n" not in log:
            problems.append("the log's last line was lost")
    for stream, text in (("the log", log), ("the text callbacks", output)):
        raw = [control for control in RAW_CONTROLS if control in text]
        if raw:
            problems.append("%s reached %s raw" % (", ".join(repr(control) for control in raw), stream))
    for line in log.split(b"\n"):
        if line.startswith(b"awards granted"):
            problems.append("a forged line reached the log: %r" % line[:80])
    if name == "stray-answers" and b"granted as x" in log:
        problems.append("an award was judged by another request's answer")
    print("%-22s %s  normal request median %5.1f ms, worst %6.1f ms; peak memory %6d KiB; stopped in %4.1f s%s%s" % (
        name, "ok  " if not problems else "FAIL", median * 1000, worst * 1000, peak, took, figures,
        "".join("\n    " + problem for problem in problems)), flush=True)
    return problems


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: attack.py PAYLINKS_BINARY [--case NAME]")
    binary = sys.argv[1]
    names = list(CASES)
    if "--case" in sys.argv:
        wanted = sys.argv[sys.argv.index("--case") + 1]
        if wanted not in CASES:
            sys.exit("error: no case %r; cases: %s" % (wanted, ", ".join(CASES)))
        names = [wanted]
    failures = {}
    for name in names:
        problems = run_case(binary, name)
        # A slow normal request alone may be a busy shared machine, not a stall: the case
        # runs once more, and fails only if its second run fails too. Anything else fails
        # at once.
        if problems and all(problem.startswith(SLOW) for problem in problems):
            print("%-22s runs again: a slow request alone may be the machine, a stall comes back" % name, flush=True)
            problems = run_case(binary, name)
        if problems:
            failures[name] = problems
    print("%d cases: %d ok, %d failed" % (len(names), len(names) - len(failures), len(failures)))
    # The failures again, last, where a log cut to its end still shows them.
    for name, problems in failures.items():
        print("failed: %s: %s" % (name, "; ".join(problems)))
    sys.exit(0 if not failures else 1)


if __name__ == "__main__":
    main()
