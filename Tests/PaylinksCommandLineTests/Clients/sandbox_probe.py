"""Real clients against a running `paylinks serve`, for the tests.

    python3 sandbox_probe.py flow PORT        the session API, the page and the control API
                                              through http.client; prints a JSON summary
    python3 sandbox_probe.py raw PORT         malformed requests over a raw socket; prints
                                              each one's status line
    python3 sandbox_probe.py inflight PORT PID  half a request, SIGTERM to PID, the other half;
                                              prints the status line that came back
    python3 sandbox_probe.py send PORT REQUEST...  each REQUEST a JSON [method, path, headers,
                                              body], sent over a raw socket with exactly those
                                              headers (a browser's Host and Origin among them);
                                              prints a JSON line per answer: status, headers, body
"""

import http.client
import json
import socket
import sys
import time

TOKEN = "paylinks-demo-publisher-token"
BODY = {
    "priceDetails": {"price": 549, "currency": "EUR"},
    "offer": {"name": "<script>alert(1)</script>", "sku": "starter_pack_001", "pricePointMetadata": 499},
    "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
    "customer": {"id": "cust_98765"},
    "countryCode2": "DE",
}


def request(port, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), data


def flow(port):
    summary = {}
    status, _, data = request(port, "POST", "/checkout/v1/session", json.dumps(BODY),
                              {"Content-Type": "application/json", "x-publisher-token": TOKEN})
    created = json.loads(data)
    summary["create"] = status
    summary["parsedUrl"] = created["parsedUrl"]
    summary["unauthorized"] = request(port, "POST", "/checkout/v1/session", json.dumps(BODY),
                                      {"Content-Type": "application/json"})[0]
    summary["badRequest"] = request(port, "POST", "/checkout/v1/session", "{}",
                                    {"Content-Type": "application/json", "x-publisher-token": TOKEN})[0]
    status, _, page = request(port, "GET", "/checkout/" + created["checkoutSessionToken"])
    summary["page"] = status
    summary["escaped"] = b"&lt;script&gt;" in page and b"<script>" not in page
    status, _, data = request(port, "POST", "/control/v1/sessions/%s/complete" % created["purchaseId"],
                              json.dumps({"choice": "pay", "paymentMethod": "Mastercard"}),
                              {"Content-Type": "application/json"})
    summary["complete"] = status
    for _ in range(50):
        status, _, data = request(port, "GET", "/control/v1/sessions/" + created["purchaseId"])
        state = json.loads(data)["state"]
        if state != "charge_pending":
            break
        time.sleep(0.1)
    summary["state"] = state
    summary["purchaseId"] = created["purchaseId"]
    # Keep-alive: two requests on one connection.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    statuses = []
    for _ in range(2):
        connection.request("GET", "/control/v1/sessions/" + created["purchaseId"])
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
    connection.close()
    summary["keepAlive"] = statuses
    print(json.dumps(summary))


RAW = [
    b"GARBAGE\r\n\r\n",
    b"GET /checkout/v1/session HTTP/2.0\r\n\r\n",
    b"POST /checkout/v1/session HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
    b"POST /checkout/v1/session HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n\r\n",
    b"POST /checkout/v1/session HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n",
    b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nno colon here\r\n\r\n",
]


def raw(port):
    for payload in RAW:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(payload)
            answer = connection.recv(4096).split(b"\r\n", 1)[0]
            print(answer.decode("ascii", "replace"))


def send(port, requests):
    for text in requests:
        method, path, headers, body = json.loads(text)
        body = body.encode()
        head = "%s %s HTTP/1.1\r\n" % (method, path)
        head += "".join("%s: %s\r\n" % (name, value) for name, value in headers.items())
        head += "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
        answer = b""
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(head.encode() + body)
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        print(json.dumps({"status": int(lines[0].split(" ")[1]), "headers": fields,
                          "body": body.decode("utf-8", "replace")}))


if __name__ == "__main__":
    command, port = sys.argv[1], int(sys.argv[2])
    if command == "flow":
        flow(port)
    elif command == "raw":
        raw(port)
    elif command == "send":
        send(port, sys.argv[3:])
