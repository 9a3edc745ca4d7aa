"""A loopback HTTP server for the client's tests: each path answers one way.

Prints its port on the first line of stdout, then serves until stdin closes or
it has answered 200 requests.
"""
import http.server
import json
import socketserver
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    # The award orders /flaky has seen, so that it refuses only their first attempt.
    seen = set()
    seen_lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        path = self.path
        if path == "/echo":
            reply = b'{"method":"%s","length":%d,"signature":"%s"}' % (
                self.command.encode(), len(body), self.headers.get("signature", "").encode())
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
        elif path == "/flaky":
            # Order ids ending in 0 are refused every time, odd ones the first time only;
            # the rest are granted as grant-<orderId>.
            order = json.loads(body)["orderId"]
            with Handler.seen_lock:
                first = order not in Handler.seen
                Handler.seen.add(order)
            if order.endswith("0") or (int(order[-1]) % 2 == 1 and first):
                status, reply = 503 if order.endswith("0") else 500, b'{"publisherErrorMessage":"try again"}'
            else:
                status, reply = 200, b'{"publisherPurchaseId":"grant-%s"}' % order.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
        elif path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in [b'{"publisher', b'PurchaseId":', b'"chunky"}']:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        elif path == "/close":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"until the end")
            self.close_connection = True
        elif path == "/slow":
            time.sleep(3)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
        elif path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", str(3 << 20))
            self.end_headers()
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/echo")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    if ":" in host:
        Server.address_family = __import__("socket").AF_INET6
    server = Server((host, 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
