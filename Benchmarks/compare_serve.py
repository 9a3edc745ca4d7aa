#!/usr/bin/env python3
"""Runs one scripted `paylinks serve` session against two binaries and says whether they
answered the same, byte for byte once what is meant to vary is masked.

Usage: python3 Benchmarks/compare_serve.py OLD NEW [--keep DIR]

The session, against the example game server (Examples/game-server/server.py) for awards
(events are left out: their queue and the awards' settle in either order, and so number
their deliveries either way): create a session, read its checkout page, pay on it; pay a second through the
control API and refund it, a third and lose its dispute; retry an award; list the
deliveries, replay one exactly and one re-signed; the orders report and the transactions
report; the dashboard and an order page; then SIGTERM. A second start of NEW on the data
directory OLD wrote reads the same reports back, so a journal written by OLD opens in NEW.

What varies between two runs of the same binary is masked: ports, times (Unix seconds and
milliseconds, ISO dates, durations), signatures, the per-process form token. The log's lines
are compared as a set: the script polls until each award has settled, and how many polls
that takes varies. `--keep DIR` leaves OLD's data directory in DIR.
"""
import atexit
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "paylinks-demo-publisher-token"
BODY = {
    "priceDetails": {"price": 499, "currency": "USD"},
    "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
    "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
    "customer": {"id": "cust_98765"},
    "countryCode2": "US",
}
JSON_HEADERS = {"Content-Type": "application/json", "x-publisher-token": TOKEN}
SECONDS = 15
# Every process started, killed at exit if a failed step left it running.
STARTED = []


@atexit.register
def kill_started():
    for process in STARTED:
        if process.poll() is None:
            process.kill()


def mask(text):
    """What differs between two runs of one binary, replaced by a word."""
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)
    text = re.sub(r"localhost:\d+", "localhost:PORT", text)
    text = re.sub(r"v1=[0-9a-f]{64}", "v1=SIGNATURE", text)
    text = re.sub(r"t=\d+", "t=TIME", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "DATE", text)
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "DATE", text)
    text = re.sub(r"\b1\d{12}\b", "MILLISECONDS", text)
    text = re.sub(r"\b1\d{9}\b", "SECONDS", text)
    text = re.sub(r"\(\d+ ms\)|\d+ ms\b", "N ms", text)
    text = re.sub(r'"milliseconds":\d+', '"milliseconds":N', text)
    text = re.sub(r"(Content-Length: )\d+", r"\1N", text)
    # A session token: 32 letters and digits (32 hex digits up to 0.1.0).
    text = re.sub(r"\b[A-Za-z0-9]{32}\b", "TOKEN", text)
    text = re.sub(r"[0-9a-f]{32,}", "HEX", text)
    text = re.sub(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT", "HTTP-DATE", text)
    return text


class Game:
    """The example game server on a free port."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "Examples/game-server/server.py"), "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        STARTED.append(self.process)
        self.port = int(self.process.stdout.readline())

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=SECONDS)


class Serve:
    """`BINARY serve` on a free port with `--data DIRECTORY`, its log and stdout kept."""

    def __init__(self, binary, directory, game):
        url = "http://127.0.0.1:%d" % game.port
        self.stdout = tempfile.TemporaryFile()
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--seed", "1", "--data", directory, "--json",
             "--award-url", url + "/award"],
            stdout=self.stdout, stderr=self.stderr,
            env={**os.environ, "PAYLINKS_PUBLISHER_TOKEN": "", "PAYLINKS_MAIN_KEY": ""})
        STARTED.append(self.process)
        deadline = time.time() + SECONDS
        while True:
            self.stderr.seek(0)
            found = re.search(rb"sandbox at http://127\.0\.0\.1:(\d+)", self.stderr.read())
            if found:
                self.port = int(found.group(1))
                return
            if time.time() > deadline or self.process.poll() is not None:
                raise SystemExit("serve did not start")
            time.sleep(0.02)

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=SECONDS)
        try:
            connection.request(method, path, body, headers or {})
            response = connection.getresponse()
            head = "".join("%s: %s\n" % pair for pair in response.getheaders() if pair[0].lower() != "date")
            return response.status, head, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def wait_until(self, purchase, state, deliveries):
        """Waits (boundedly) until the session is in `state` with `deliveries` attempts settled."""
        deadline = time.time() + SECONDS
        while time.time() < deadline:
            _, _, session = self.request("GET", "/control/v1/sessions/%s" % purchase)
            _, _, listed = self.request("GET", "/control/v1/deliveries?purchaseId=%s" % purchase)
            if json.loads(session).get("state") == state and len(json.loads(listed)["deliveries"]) >= deliveries:
                return
            time.sleep(0.02)
        raise SystemExit("session %s never reached %s with %d deliveries: %s %s" % (
            purchase, state, deliveries, session, listed))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=SECONDS)
        self.stdout.seek(0)
        self.stderr.seek(0)
        return code, self.stdout.read().decode("utf-8", "replace"), self.stderr.read().decode("utf-8", "replace")


def session(binary, directory):
    """The scripted session: a transcript of every answer, and the log's lines."""
    game = Game()
    serve = Serve(binary, directory, game)
    said = []

    def ask(method, path, body=None, headers=None, lines_in_any_order=False, rows_in_any_order=False):
        status, head, text = serve.request(method, path, body, headers)
        if rows_in_any_order:
            report = json.loads(mask(text))
            report["results"] = sorted(report["results"], key=lambda row: json.dumps(row, sort_keys=True))
            text = json.dumps(report, sort_keys=True)
        if lines_in_any_order:
            text = "\n".join(sorted(mask(text).splitlines()))
        said.append("%s %s -> %d\n%s\n%s\n" % (method, path, status, head, text))
        return text

    def create():
        return json.loads(ask("POST", "/checkout/v1/session", json.dumps(BODY), JSON_HEADERS))

    first = create()
    page = ask("GET", "/checkout/%s" % first["checkoutSessionToken"])
    form_token = re.search(r'name="formToken" value="([0-9a-f]+)"', page).group(1)
    ask("POST", "/checkout/%s" % first["checkoutSessionToken"],
        "formToken=%s&paymentMethod=Visa&choice=pay" % form_token,
        {"Content-Type": "application/x-www-form-urlencoded"})
    serve.wait_until(first["purchaseId"], "charge_succeed", 1)
    plain = {"Content-Type": "application/json"}
    second, third, fourth = create(), create(), create()
    for one in (second, third, fourth):
        ask("POST", "/control/v1/sessions/%s/complete" % one["purchaseId"], '{"choice": "pay"}', plain)
        serve.wait_until(one["purchaseId"], "charge_succeed", 1)
    ask("POST", "/control/v1/sessions/%s/refund" % second["purchaseId"], '{"outcome": "refunded"}', plain)
    ask("POST", "/control/v1/sessions/%s/dispute" % third["purchaseId"], '{"outcome": "lost"}', plain)
    ask("POST", "/control/v1/sessions/%s/retry-award" % fourth["purchaseId"], "", plain)
    serve.wait_until(fourth["purchaseId"], "charge_succeed", 1)
    listed = json.loads(ask("GET", "/control/v1/deliveries?purchaseId=%s" % first["purchaseId"]))["deliveries"]
    award = listed[0]["id"]
    ask("GET", "/control/v1/deliveries/%s" % award)
    ask("POST", "/control/v1/deliveries/%s/replay" % award, '{"resign": false}', plain)
    ask("POST", "/control/v1/deliveries/%s/replay" % award, '{"resign": true}', plain)
    serve.wait_until(first["purchaseId"], "charge_succeed", 3)
    # Both reports are in order of time to the second: rows of the same second come in
    # either order.
    ask("POST", "/reporting/reports/orders", json.dumps({
        "startDate": "2000-01-01T00:00:00Z", "endDate": "2100-01-01T00:00:00Z", "recordLimit": 100, "offset": 0}),
        JSON_HEADERS, rows_in_any_order=True)
    ask("GET", "/reporting/financial-data/transactions?startDate=2000-01-01T00:00:00Z&endDate=2100-01-01T00:00:00Z",
        None, {"x-publisher-token": TOKEN}, rows_in_any_order=True)
    ask("GET", "/")
    # An order's timeline is in order of time to the second: a refund and an award's
    # delivery in the same second come in either order.
    ask("GET", "/orders/%s" % second["purchaseId"], lines_in_any_order=True)
    ask("GET", "/nowhere")
    ask("DELETE", "/checkout/v1/session")
    code, stdout, stderr = serve.stop()
    game.stop()
    stderr = stderr.replace(directory, "DATA")
    return mask("".join(said)), mask(stdout), sorted(set(mask(stderr).splitlines())), code


def reports(binary, directory):
    """The orders report of a start on `directory`."""
    game = Game()
    serve = Serve(binary, directory, game)
    _, _, text = serve.request("POST", "/reporting/reports/orders", json.dumps({
        "startDate": "2000-01-01T00:00:00Z", "endDate": "2100-01-01T00:00:00Z", "recordLimit": 100, "offset": 0}),
        JSON_HEADERS)
    serve.stop()
    game.stop()
    return mask(text)


def main():
    arguments = sys.argv[1:]
    keep = None
    if "--keep" in arguments:
        index = arguments.index("--keep")
        keep = arguments[index + 1]
        del arguments[index:index + 2]
    if len(arguments) != 2:
        raise SystemExit("usage: compare_serve.py OLD NEW [--keep DIR]")
    old, new = arguments
    work = tempfile.mkdtemp()
    try:
        results = [session(binary, os.path.join(work, name)) for binary, name in ((old, "old"), (new, "new"))]
        different = []
        for part, name in enumerate(["answers", "stdout", "log", "exit code"]):
            if results[0][part] != results[1][part]:
                different.append(name)
                if name == "log":
                    only = set(results[0][part]) ^ set(results[1][part])
                    for line in sorted(only)[:20]:
                        print(("old: " if line in results[0][part] else "new: ") + line)
        read_back = [reports(new, os.path.join(work, name)) for name in ("old", "new")]
        if read_back[0] != read_back[1]:
            different.append("the orders report read back from OLD's journal")
        answers = results[0][0].count(" -> ")
        if different:
            print("different: " + ", ".join(different))
            for name, result in zip(("old", "new"), results):
                with open(os.path.join(work, name + ".answers"), "w") as file:
                    file.write(result[0])
            print("transcripts in " + work)
            return 1
        print("serve: %d answers, %d log lines, stdout %d bytes, exit %d: the same; OLD's journal read by NEW: "
              "the same orders report" % (answers, len(results[0][2]), len(results[0][1]), results[0][3]))
        if keep:
            shutil.copytree(os.path.join(work, "old"), keep, dirs_exist_ok=True)
        shutil.rmtree(work)
        return 0
    except BaseException:
        print("work left in " + work, file=sys.stderr)
        raise


if __name__ == "__main__":
    sys.exit(main())
