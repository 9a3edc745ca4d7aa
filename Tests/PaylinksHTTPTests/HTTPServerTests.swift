import Foundation
import PaylinksHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's limits, in process with short limits: each assertion waits for what the
/// server sends (bounded), never for a fixed time.
@Suite("HTTP server limits")
struct HTTPServerTests {
    /// An `HTTPServer` running on a thread of its own until ``stop()``.
    final class Running: @unchecked Sendable {
        let port: Int
        private let server: HTTPServer
        private let lock = NSLock()
        private var stopping = false
        private let finished = DispatchSemaphore(value: 0)

        init(limits: HTTPServer.Limits) throws {
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits)
            port = server.port
            let thread = Thread { [self] in
                server.run(until: { self.lock.withLock { self.stopping } }) { _ in
                    HTTPServerResponse(status: 200, contentType: "text/plain", body: Array("ok".utf8))
                }
                finished.signal()
            }
            thread.start()
        }

        /// Stops the server and waits, up to five seconds, for it to return.
        func stop() -> Bool {
            lock.withLock { stopping = true }
            return finished.wait(timeout: .now() + 5) == .success
        }
    }

    /// A client connection on loopback, with bounded reads.
    final class Client {
        let descriptor: Int32

        init(port: Int) throws {
            #if canImport(Glibc)
                descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(result == 0, "connect: \(errno)")
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }

        /// What arrives within `milliseconds`, up to the first byte of a pause or the end;
        /// empty when nothing came in time.
        func read(within milliseconds: Int32) -> String {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) == 1 else { return "" }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
        }
    }

    @Test("connections past the limit are answered 503 and closed, exactly those, and the server still answers")
    func connectionLimit() throws {
        var limits = HTTPServer.Limits()
        limits.connections = 4
        let server = try Running(limits: limits)
        let clients = try (0..<10).map { _ in try Client(port: server.port) }
        // The kernel hands connections over in the order they were made: the last six are refused.
        for client in clients.suffix(6) {
            #expect(client.read(within: 5000).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        }
        for client in clients.prefix(4) { #expect(client.read(within: 0) == "", "a connection within the limit") }
        clients.first?.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(clients.first?.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n") == true)
        #expect(server.stop())
    }

    @Test("a request that trickles in slower than the read time is answered 408 once the time is up")
    func readTime() throws {
        var limits = HTTPServer.Limits()
        limits.readMilliseconds = 300
        let server = try Running(limits: limits)
        let client = try Client(port: server.port)
        let started = Date()
        client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{")
        let answer = client.read(within: 5000)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(Date().timeIntervalSince(started) >= 0.3, "not before the read time")
        #expect(server.stop())
    }

    @Test("stopping closes idle connections at once and returns")
    func stopping() throws {
        let server = try Running(limits: HTTPServer.Limits())
        let client = try Client(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(server.stop(), "the server returned within five seconds")
    }
}
