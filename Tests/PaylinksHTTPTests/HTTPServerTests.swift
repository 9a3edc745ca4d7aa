import Foundation
import PaylinksAppcharge
import PaylinksDelivery
import PaylinksKit
import Testing

@testable import PaylinksHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A responder made of closures, for the tests' servers: each request is answered as it
/// is by `answer`, and the server stops once `stopping` says so.
struct TestResponder: HTTPResponder {
    let stopping: @Sendable () -> Bool
    let answer: @Sendable (HTTPRequest) -> HTTPAnswer
    /// Called with each request on the loop it came to, before it is answered.
    var prepared: @Sendable (HTTPRequest) -> Void = { _ in }

    var isStopping: Bool { stopping() }

    func prepare(_ request: HTTPRequest) -> HTTPRequest {
        prepared(request)
        return request
    }

    func respond(to request: HTTPRequest) -> HTTPAnswer { answer(request) }
}

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
        /// Signalled when the server has been told to stop, seen from its own thread.
        private let stopSeen = DispatchSemaphore(value: 0)
        private var answered = 0

        /// A server answering with `handle` (`ok` to everything by default), and what it refuses
        /// on its own with `refusal`; with `stopOnceARequestArrives`, it is told to stop as soon
        /// as a request has begun to arrive, as a signal would come then.
        init(
            limits: HTTPServer.Limits, loops: Int = 2, stopOnceARequestArrives: Bool = false,
            handle: @escaping @Sendable (HTTPRequest) -> HTTPServerResponse = { _ in
                HTTPServerResponse(status: 200, contentType: "text/plain", body: Array("ok".utf8))
            },
            prepared: @escaping @Sendable (HTTPRequest) -> Void = { _ in },
            refusal: @escaping @Sendable (HTTPServer.Refusal) -> HTTPServerResponse = HTTPServerTests.plainRefusal
        ) throws {
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, loops: loops, refusal: refusal)
            port = server.port
            let thread = Thread { [self] in
                server.run(
                    TestResponder(
                        stopping: {
                            let stop =
                                self.lock.withLock { self.stopping }
                                || (stopOnceARequestArrives && self.server.requestsArriving > 0)
                            if stop { self.stopSeen.signal() }
                            return stop
                        },
                        answer: { request in
                            self.lock.withLock { self.answered += 1 }
                            return .ready(handle(request))
                        }, prepared: prepared))
                finished.signal()
            }
            thread.start()
        }

        /// Requests answered so far.
        var answeredCount: Int { lock.withLock { answered } }

        /// Waits, up to five seconds, for the server to see that it must stop.
        func stopHasBegun() -> Bool {
            stopSeen.wait(timeout: .now() + 5) == .success
        }

        /// Waits, up to five seconds, for the server to return by itself.
        func hasReturned() -> Bool {
            finished.wait(timeout: .now() + 5) == .success
        }

        /// Stops the server and waits, up to five seconds, for it to return.
        func stop() -> Bool {
            lock.withLock { stopping = true }
            return finished.wait(timeout: .now() + 5) == .success
        }
    }

    /// What the tests' servers answer to what they refuse on their own: the status and the
    /// reason in plain text.
    @Sendable static func plainRefusal(_ refusal: HTTPServer.Refusal) -> HTTPServerResponse {
        HTTPServerResponse(
            status: refusal.status, contentType: "text/plain", body: Array("refused: \(refusal.message)".utf8))
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

    @Test("answers of 12 MiB go out whole, pipelined or not, to a client that reads them")
    func largeAnswersDrain() throws {
        let body = [UInt8](repeating: 0x61, count: 12 << 20)
        let answer = HTTPServerResponse(status: 200, contentType: "text/plain", body: body)
        let server = try Running(limits: HTTPServer.Limits()) { _ in answer }
        let client = try Client(port: server.port)
        client.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 2))
        // Read at full speed until both answers are in, or nothing comes for 5 s.
        let one = answer.encoded(closing: false)
        let whole = one + one
        var stream = [UInt8](repeating: 0, count: whole.count + 1)
        var received = 0
        var poller = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
        while received < whole.count, poll(&poller, 1, 5_000) == 1 {
            let count = stream.withUnsafeMutableBytes {
                recv(client.descriptor, $0.baseAddress! + received, $0.count - received, 0)
            }
            guard count > 0 else { break }
            received += count
        }
        #expect(received == whole.count, "\(received) bytes of two answers of \(one.count)")
        let same = stream.withUnsafeBytes { got in
            whole.withUnsafeBytes { memcmp(got.baseAddress!, $0.baseAddress!, $0.count) }
        }
        #expect(same == 0, "the bytes received are not the two answers")
        #expect(server.stop())
    }

    /// A client that takes `chunk` bytes of what it is sent every `milliseconds`, with a
    /// small receive buffer; whether the server closed it within `seconds`.
    static func trickles(_ client: Client, chunk: Int, every milliseconds: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: chunk)
        while Date() < deadline {
            var poller = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) >= 0 else { return true }
            let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return true }
            // The pace of the slow reader under test, not a wait for something to happen: the
            // verdict comes from the server closing the connection, within `seconds`.
            usleep(UInt32(milliseconds) * 1000)
        }
        return false
    }

    static func smallReceiveBuffer(_ client: Client) {
        var size: Int32 = 4096
        setsockopt(client.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    @Test("a client that takes its answer slower than the least a read time is closed, holding no memory for long")
    func tricklingReaderClosed() throws {
        var limits = HTTPServer.Limits()
        limits.readMilliseconds = 1_000
        // More than the system's socket buffers take, so that the rest waits in the server.
        let body = [UInt8](repeating: 0x61, count: 32 << 20)
        let server = try Running(limits: limits) { _ in
            HTTPServerResponse(status: 200, contentType: "text/plain", body: body)
        }
        let client = try Client(port: server.port)
        Self.smallReceiveBuffer(client)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        // 1 KiB every 50 ms is 20 KiB a second, less than 64 KiB a read time of a second.
        #expect(Self.trickles(client, chunk: 1024, every: 50, within: 8), "still served after 8 s")
        #expect(server.stop())
    }
    @Test(
        "answers left to make later wait while the server holds its limit of answers not taken, and come once it does not"
    )
    func heldAnswersBounded() throws {
        var limits = HTTPServer.Limits()
        // No client is closed for taking too little while the test runs.
        limits.readMilliseconds = 60_000
        limits.heldAnswers = 32 << 20
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            var value: Int { lock.withLock { count } }
            func add() { lock.withLock { count += 1 } }
        }
        final class Box: @unchecked Sendable {
            let server: HTTPServer
            init(_ server: HTTPServer) { self.server = server }
        }
        let made = Counter()
        let stopping = Counter()
        let box = Box(
            try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, loops: 2, refusal: HTTPServerTests.plainRefusal))
        let done = DispatchSemaphore(value: 0)
        // Far larger than what the system's socket buffers take of it (4 MiB at most on Linux),
        // so that most of each waits in the server.
        let body = [UInt8](repeating: 0x62, count: 16 << 20)
        Thread {
            box.server.run(
                TestResponder(
                    stopping: { stopping.value > 0 },
                    answer: { _ in
                        .later(HTTPServerResponse(status: 200, contentType: "text/plain", body: [])) {
                            made.add()
                            return body
                        }
                    }))
            done.signal()
        }.start()
        // Ten clients that ask and read nothing: without a limit all ten answers are made at once.
        var stuck = try (0..<10).map { _ in try Client(port: box.server.port) }
        for client in stuck {
            Self.smallReceiveBuffer(client)
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        // The first answers are made (a signal, however slow the machine), then the rest would
        // be within moments if nothing held them back: a bounded wait for what must not come.
        let started = Date().addingTimeInterval(20)
        while made.value < 2 && Date() < started { usleep(2_000) }
        let deadline = Date().addingTimeInterval(2)
        while made.value < 10 && Date() < deadline { usleep(2_000) }
        #expect((2...6).contains(made.value), "\(made.value) answers of 16 MiB made for clients that read none")
        // They go; a reader's answer is then made, and comes whole.
        stuck.removeAll()
        let reader = try Client(port: box.server.port)
        reader.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var poller = pollfd(fd: reader.descriptor, events: Int16(POLLIN), revents: 0)
        while received < body.count, poll(&poller, 1, 10_000) == 1 {
            let count = buffer.withUnsafeMutableBytes { recv(reader.descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += count
        }
        #expect(received > body.count)
        stopping.add()
        #expect(done.wait(timeout: .now() + 15) == .success)
    }

    @Test("connections are served on every loop, and the handler is never called twice at once")
    func loopsShareTheWork() throws {
        /// What the handler saw, under its lock.
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var inside = false
            var overlapped = false
            /// The threads requests were read on: a request is read on the loop its
            /// connection was handed to, and answered on whichever loop holds the lock.
            var threads = Set<ObjectIdentifier>()
        }
        let seen = Seen()
        let server = try Running(
            limits: HTTPServer.Limits(), loops: 2,
            handle: { _ in
                seen.lock.withLock {
                    seen.overlapped = seen.overlapped || seen.inside
                    seen.inside = true
                }
                // Widens the window in which a second loop could come in while this request is
                // handled. No assertion waits on this pause (each waits for its answer, bounded),
                // so it cannot make the test flaky; it only makes an overlap likelier to be seen.
                usleep(2_000)
                seen.lock.withLock { seen.inside = false }
                return HTTPServerResponse(status: 200, contentType: "text/plain", body: Array("ok".utf8))
            },
            prepared: { _ in seen.lock.withLock { _ = seen.threads.insert(ObjectIdentifier(Thread.current)) } })
        let clients = try (0..<8).map { _ in try Client(port: server.port) }
        for _ in 0..<5 {
            for client in clients { client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
            for client in clients { #expect(client.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n")) }
        }
        #expect(server.answeredCount == 40)
        seen.lock.withLock {
            #expect(!seen.overlapped, "two requests were handled at once")
            #expect(seen.threads.count == 2, "the connections were handed to both loops")
        }
        #expect(server.stop())
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

    @Test(
        "at the limit, the connection idle longest makes room; one with a request arriving keeps its place"
    )
    func idleConnectionsMakeRoom() throws {
        var limits = HTTPServer.Limits()
        limits.connections = 2
        let server = try Running(limits: limits)
        let kept = try Client(port: server.port)
        kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        let busy = try Client(port: server.port)
        busy.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{")
        let newcomer = try Client(port: server.port)
        newcomer.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(newcomer.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(kept.read(within: 5000) == "", "the kept-alive connection was closed to make room")
        // The busy one kept its place: its request is still answered. (With none idle, a new
        // connection is refused: connectionLimit.)
        busy.send("1234")
        #expect(busy.read(within: 5000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(server.stop())
    }

    @Test(
        "what the server refuses on its own is answered in its user's words, as the status and reason say",
        arguments: [
            HTTPServer.Refusal.cannotTake(.malformed("a header's name is empty or holds a blank")),
            .tooSlow(seconds: 1), .tooManyConnections(limit: 1),
        ])
    func refusalsInTheUsersWords(refusal: HTTPServer.Refusal) throws {
        var limits = HTTPServer.Limits()
        limits.readMilliseconds = 1000
        if case .tooManyConnections(let limit) = refusal { limits.connections = limit }
        let server = try Running(
            limits: limits,
            refusal: { refused in
                HTTPServerResponse(
                    status: refused.status, contentType: "text/x-refusal", body: Array(refused.message.utf8))
            })
        let client = try Client(port: server.port)
        let answer: String
        switch refusal {
        case .cannotTake:
            client.send("GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n")
            answer = client.read(within: 5000)
        case .tooSlow:
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{")
            answer = client.read(within: 5000)
        case .tooManyConnections:
            // The first connection keeps its place, a request arriving on it: it makes no room.
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{")
            answer = try Client(port: server.port).read(within: 5000)
        case .noAnswer:
            Issue.record("a responder answers every request")
            return
        }
        let reason = HTTPServerResponse.reason(refusal.status)
        #expect(
            answer.hasPrefix("HTTP/1.1 \(refusal.status) \(reason)\r\nContent-Type: text/x-refusal\r\n"), "\(answer)")
        #expect(answer.hasSuffix("Connection: close\r\n\r\n\(refusal.message)"), "\(answer)")
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

    @Test("a stop while a request arrives: that request is still answered, then the server returns")
    func stopDuringARequest() throws {
        let server = try Running(limits: HTTPServer.Limits(), stopOnceARequestArrives: true)
        let client = try Client(port: server.port)
        client.send("POST /checkout/v1/session HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345")
        #expect(server.stopHasBegun())
        #expect(server.answeredCount == 0)
        client.send("67890")
        #expect(client.read(within: 5_000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(server.hasReturned())
        #expect(server.answeredCount == 1)
    }

    @Test("a client that pipelines requests and never reads stalls no one, holds bounded output, and is dropped")
    func pipelinerStallsNoOne() throws {
        var limits = HTTPServer.Limits()
        limits.readMilliseconds = 1_500
        let body = [UInt8](repeating: 0x61, count: 256 << 10)
        let server = try Running(limits: limits) { _ in
            HTTPServerResponse(status: 200, contentType: "text/plain", body: body)
        }
        let hostile = try Client(port: server.port)
        hostile.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 2_000))
        // The pipeliner is being answered (bounded wait for that signal).
        let deadline = Date().addingTimeInterval(5)
        // Polls for the signal, bounded by the deadline.
        while server.answeredCount == 0 && Date() < deadline { usleep(1_000) }
        #expect(server.answeredCount > 0)
        let normal = try Client(port: server.port)
        let started = Date()
        normal.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(normal.read(within: 5_000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(Date().timeIntervalSince(started) < 1, "a normal request waited behind the pipeliner")
        // The server read no more of the pipeliner's requests than its answers could wait for.
        #expect(server.answeredCount < 100, "\(server.answeredCount) answers made for a client that reads none")
        #expect(server.stop())
    }

    @Test("Expect: 100-continue gets 100 Continue once the head is in, then the answer once the body is")
    func expectContinue() throws {
        let server = try Running(limits: HTTPServer.Limits())
        let client = try Client(port: server.port)
        client.send("POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        #expect(client.read(within: 5_000) == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hi")
        #expect(client.read(within: 5_000).hasPrefix("HTTP/1.1 200 OK\r\n"))
        // Too large a body is refused at once, without 100 Continue.
        let refused = try Client(port: server.port)
        refused.send("POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 99999999\r\n\r\n")
        #expect(refused.read(within: 5_000).hasPrefix("HTTP/1.1 413 "))
        #expect(server.stop())
    }

    @Test("the client and the server talk over one kept-alive connection: bodies both ways, HEAD without one")
    func clientAgainstServer() throws {
        let server = try Running(limits: HTTPServer.Limits()) { request in
            let text = "\(request.method) \(request.path)?\(request.query) \(request.header("x-case") ?? "-") "
            return HTTPServerResponse(
                status: 200, contentType: "text/plain", body: Array(text.utf8) + request.body)
        }
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(server.port)/award?game=1"), connectTimeout: 2, responseTimeout: 2)
        defer { client.close() }
        let first = try client.send(headers: [HTTPHeader("X-Case", "one")], body: Array("body".utf8))
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "POST /award?game=1 one body")
        let second = try client.send(method: .get, headers: [], body: [])
        #expect(String(decoding: second.body, as: UTF8.self) == "GET /award?game=1 - ")
        let head = try client.send(method: .head, headers: [], body: [])
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(server.answeredCount == 3)
        #expect(server.stop())
    }

    @Test("an award sent to the project's own server: granted on 200 with an id, retried on 500, never after a grant")
    func awardAgainstServer() throws {
        let calls = Counter()
        let server = try Running(limits: HTTPServer.Limits()) { request in
            let number = calls.next()
            guard number > 1 else { return errorAnswer(500, "not yet") }
            #expect(request.header("signature")?.hasPrefix("t=") == true)
            return HTTPServerResponse(
                status: 200, contentType: "application/json",
                body: Array(#"{"publisherPurchaseId":"g_\#(number)"}"#.utf8))
        }
        let sender = AwardSender(
            DeliveryDestination(
                url: try HTTPURL("http://127.0.0.1:\(server.port)/award"), key: Array("key".utf8),
                publisherToken: "token"),
            for: .award)
        defer { sender.close() }
        let order = OrderResponseModel(
            date: 1_718_182_312, sessionToken: "s", offerName: "Starter Pack", offerSku: "starter_pack_001",
            items: [], price: 499, currency: "USD", customerId: "cust_1", customerCountry: "US",
            paymentMethodName: "Visa", orderId: "1", purchaseId: "pr_1")
        let attempts = sender.deliver(GrantAward(order: order, catalog: .builtIn))
        #expect(attempts.map(\.status) == [500, 200])
        #expect(attempts.last?.publisherPurchaseId == "g_2")
        #expect(calls.value == 2)
        #expect(server.stop())
    }
}

/// The award queue's pool: however many awards are due, a fixed number of threads and
/// connections send them, the rest wait in order.
@Suite("Award queue")
struct AwardQueueTests {
    static let order = OrderResponseModel(
        date: 1_718_182_312, sessionToken: "s", offerName: "Starter Pack", offerSku: "starter_pack_001", items: [],
        price: 499, currency: "USD", customerId: "cust_1", customerCountry: "US", paymentMethodName: "Visa",
        orderId: "1", purchaseId: "pr_1")

    /// A server that grants every award after `microseconds`, and a queue of `workers`
    /// to it holding `count` awards.
    func slowGrants(
        microseconds: UInt32, workers: Int, count: Int
    ) throws -> (server: HTTPServerTests.Running, queue: AwardQueue) {
        // The endpoint's own slowness, what the pool is tested against; no assertion waits on it.
        let server = try HTTPServerTests.Running(limits: HTTPServer.Limits()) { _ in
            usleep(microseconds)
            return HTTPServerResponse(status: 200, body: Array(#"{"publisherPurchaseId":"g"}"#.utf8))
        }
        let queue = AwardQueue(
            destination: DeliveryDestination(
                url: try HTTPURL("http://127.0.0.1:\(server.port)/award"), key: Array("k".utf8), publisherToken: "t"),
            workers: workers)
        for number in 0..<count {
            queue.submit(Scheduled(GrantAward(order: Self.order, catalog: .builtIn)), id: "award-\(number)")
        }
        return (server, queue)
    }

    @Test("50 awards to a slow endpoint take at most the pool's threads, and all are granted")
    func boundedPool() throws {
        let (server, queue) = try slowGrants(microseconds: 5_000, workers: 4, count: 50)
        #expect(queue.threadCount == 4, "a pool of four, not a thread per award")
        var done: [String] = []
        let deadline = Date().addingTimeInterval(20)
        // Polls for the awards that ended, bounded by the deadline.
        while done.count < 50 && Date() < deadline {
            done += queue.takeFinished().map(\.id)
            usleep(2_000)
        }
        #expect(done.count == 50)
        #expect(Set(done).count == 50)
        let (rest, unsent) = queue.finishAll()
        #expect(rest.isEmpty && unsent.isEmpty)
        #expect(server.stop())
    }

    @Test("a stop sends no award still waiting and loses none: each has ended or is named unsent")
    func stopLosesNone() throws {
        // 200 ms an award over 2 workers: the 20 take 2 s, so that the stop comes while most
        // still wait, however late this thread gets to it on a busy machine.
        let (server, queue) = try slowGrants(microseconds: 200_000, workers: 2, count: 20)
        let (finished, unsent) = queue.finishAll()
        #expect(finished.count + unsent.count == 20)
        #expect(!unsent.isEmpty, "a stop waits for no award still waiting")
        #expect(finished.allSatisfy { $0.attempts.count == 1 })
        #expect(server.stop())
    }

    /// What a stop handed back, from the thread that waited for it.
    final class StopOutcome: @unchecked Sendable {
        let lock = NSLock()
        var attempts: Int?
    }

    /// Submits `item` to `queue`, whose endpoint refuses it (signalling `refused` as it
    /// answers), then stops the queue during the real-time pause before the retry: whether
    /// the stop returned within two seconds, and how many attempts the delivery made.
    func stopDuringPause<Item: Sendable>(
        _ queue: DeliveryQueue<Item>, item: Item, refused: DispatchSemaphore
    ) -> (stoppedInTime: Bool, attempts: Int?) {
        queue.submit(item, id: "pr_1")
        guard refused.wait(timeout: .now() + 10) == .success else { return (false, nil) }
        let outcome = StopOutcome()
        let stopped = DispatchSemaphore(value: 0)
        // On a thread of its own, so that a stop that waits out the pause (10 s, 5 min)
        // fails the test at the bound instead of holding it.
        Thread {
            let attempts = queue.finishAll().finished.first?.attempts.count
            outcome.lock.withLock { outcome.attempts = attempts }
            stopped.signal()
        }.start()
        let inTime = stopped.wait(timeout: .now() + 2) == .success
        return (inTime, outcome.lock.withLock { outcome.attempts })
    }

    @Test(
        "a stop ends a real-time pause between retries at once, and no retry follows",
        arguments: ["award, 10 s apart", "V1 event, 5 minutes apart"])
    func stopEndsThePause(delivery: String) throws {
        let refused = DispatchSemaphore(value: 0)
        let server = try HTTPServerTests.Running(limits: HTTPServer.Limits()) { _ in
            refused.signal()
            return errorAnswer(500, "down")
        }
        let url = try HTTPURL("http://127.0.0.1:\(server.port)/deliveries")
        let (inTime, attempts) =
            delivery.hasPrefix("award")
            ? stopDuringPause(
                AwardQueue(
                    destination: DeliveryDestination(
                        url: url, key: Array("k".utf8), publisherToken: "t", waitsInRealTime: true)),
                item: Scheduled(GrantAward(order: Self.order, catalog: .builtIn)), refused: refused)
            : stopDuringPause(
                EventQueue(
                    destination: DeliveryDestination(
                        url: url, key: Array("k".utf8), publisherToken: "t", projectId: "p", waitsInRealTime: true),
                    workers: 1),
                item: Scheduled(
                    OrderEvent(
                        .refunded, version: .v1,
                        subject: .init(order: Self.order, money: OrderMoney(order: Self.order, catalog: .builtIn)),
                        milliseconds: 1_718_182_400_000, seed: 1, sequence: 3)), refused: refused)
        #expect(inTime, "the stop waited out the pause")
        #expect(attempts == 1, "the attempt made before the stop, and no retry")
        #expect(server.answeredCount == 1)
        #expect(server.stop())
    }

    @Test("two deliveries known by the same id come back each with its own item and attempts, the later first")
    func endedOutOfOrder() throws {
        let firstMayEnd = DispatchSemaphore(value: 0)
        let queue = DeliveryQueue<String>(url: try HTTPURL("http://127.0.0.1:9/"), workers: 2) {
            DeliveryQueue<String>.Sender(
                deliver: { item, _ in
                    // The first is held until the second has been handed back (bounded).
                    if item == "first" { _ = firstMayEnd.wait(timeout: .now() + 10) }
                    var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
                    attempt.failure = "sent as \(item)"
                    return [attempt]
                }, close: {})
        }
        queue.submit("first", id: "replay of dl_1")
        queue.submit("second", id: "replay of dl_1")
        // The queue signals nothing when a delivery ends: what ended is polled for, up to 10 s.
        func next() -> [DeliveryQueue<String>.Ended] {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let ended = queue.takeFinished()
                if !ended.isEmpty { return ended }
                usleep(2_000)
            }
            return []
        }
        let early = next()
        firstMayEnd.signal()
        let late = next()
        #expect(early.map(\.item) == ["second"])
        #expect(early.first?.attempts.first?.failure == "sent as second")
        #expect(late.map(\.item) == ["first"])
        #expect(late.first?.attempts.first?.failure == "sent as first")
        #expect(queue.finishAll().finished.isEmpty)
    }
}

/// Events delivered to the project's own server: signed over the exact bytes, retried on
/// their version's schedule with the same body and `eventId`.
@Suite("Event delivery")
struct EventDeliveryTests {
    /// Bodies and signatures the server received, in order.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [(body: [UInt8], signature: String)] = []

        func add(_ request: HTTPRequest) {
            lock.withLock { requests.append((request.body, request.header("signature") ?? "")) }
        }

        var all: [(body: [UInt8], signature: String)] { lock.withLock { requests } }
    }

    func event(_ version: OrderEvent.Version) -> OrderEvent {
        OrderEvent(
            .refunded, version: version,
            subject: .init(
                order: AwardQueueTests.order, money: OrderMoney(order: AwardQueueTests.order, catalog: .builtIn)),
            milliseconds: 1_718_182_400_000, seed: 1, sequence: 3)
    }

    @Test("a V2 event refused twice is sent again, the same bytes each time, each attempt signed over them")
    func v2Retries() throws {
        let received = Received()
        let calls = Counter()
        let server = try HTTPServerTests.Running(limits: HTTPServer.Limits()) { request in
            received.add(request)
            return calls.next() <= 2 ? errorAnswer(503, "busy") : HTTPServerResponse(status: 204, body: [])
        }
        let sender = EventSender(
            DeliveryDestination(
                url: try HTTPURL("http://127.0.0.1:\(server.port)/events"), key: Array("events-key".utf8),
                publisherToken: "t", projectId: "p"),
            for: .event)
        defer { sender.close() }
        let event = event(.v2)
        let attempts = sender.deliver(event)
        #expect(attempts.map(\.status) == [503, 503, 204])
        #expect(attempts.map(\.sentAfter) == [0, 15_000, 30_000])
        #expect(received.all.allSatisfy { $0.body == event.body })
        for request in received.all {
            let time = request.signature.split(separator: ",").first.map { String($0.dropFirst(2)) } ?? ""
            #expect(
                request.signature
                    == GrantAward.signature(
                        body: request.body, milliseconds: Int(time) ?? -1, key: Array("events-key".utf8)))
        }
        #expect(server.stop())
    }

    @Test("V1 retries a server error three more times, 5 minutes apart, and never a 4xx")
    func v1Retries() throws {
        let calls = Counter()
        let server = try HTTPServerTests.Running(limits: HTTPServer.Limits()) { _ in
            calls.next() == 1 ? errorAnswer(404, "no") : errorAnswer(500, "down")
        }
        let sender = EventSender(
            DeliveryDestination(
                url: try HTTPURL("http://127.0.0.1:\(server.port)/events"), key: Array("k".utf8), publisherToken: "t",
                projectId: "p"),
            for: .event)
        defer { sender.close() }
        #expect(sender.deliver(event(.v1)).map(\.status) == [404])
        let attempts = sender.deliver(event(.v1))
        #expect(attempts.map(\.status) == [500, 500, 500, 500])
        #expect(attempts.map(\.sentAfter) == [0, 300_000, 600_000, 900_000])
        #expect(server.stop())
    }
}

/// An error answer as a game server gives one: `{"errorCode": status, "errorMessage": message}`.
func errorAnswer(_ status: Int, _ message: String) -> HTTPServerResponse {
    HTTPServerResponse(status: status, body: Array(#"{"errorCode":\#(status),"errorMessage":"\#(message)"}"#.utf8))
}

/// A count shared with the server's thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Counts one more, and returns the new count.
    func next() -> Int {
        lock.withLock {
            count += 1; return count
        }
    }

    /// The count.
    var value: Int { lock.withLock { count } }
}

/// A socket listening on an ephemeral port of 127.0.0.1, and the port.
func loopbackListener() throws -> (descriptor: Int32, port: Int) {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0
                && getsockname(descriptor, address, &length) == 0
        }
    }
    try #require(bound, "bind: \(errno)")
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A hostile HTTP peer on loopback: it accepts connections one after another, reads what
/// arrives, and answers each request with `answer(n)`, the bytes for the n-th request
/// (from 1); with `talkForever`, it keeps sending those bytes as fast as the client takes
/// them, until the client goes.
final class RawPeer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var done = false

    init(talkForever: Bool = false, answer: @escaping @Sendable (Int) -> String) throws {
        let (descriptor, port) = try loopbackListener()
        listener = descriptor
        self.port = port
        Thread { [self] in
            var served = 0
            while !isDone {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) == 1 else { continue }
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while !isDone {
                    var reader = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                    guard poll(&reader, 1, 50) == 1 else { continue }
                    let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    served += 1
                    let bytes = Array(answer(served).utf8)
                    var sent = 0
                    repeat {
                        sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    } while talkForever && sent > 0 && !isDone
                }
                close(connection)
            }
        }.start()
    }

    private var isDone: Bool { lock.withLock { done } }

    deinit { close(listener) }

    /// Stops accepting and answering.
    func stop() {
        lock.withLock { done = true }
    }
}

/// The client keeps its own deadline and its own framing, whatever the server sends.
@Suite("HTTP client against hostile servers")
struct HostileServerTests {
    @Test("a server that streams 100 Continue forever is cut, by the deadline or the size limit, in bounded time")
    func endlessInterimResponses() throws {
        let peer = try RawPeer(talkForever: true) { _ in
            String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 100)
        }
        defer { peer.stop() }
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(peer.port)/award"), connectTimeout: 2, responseTimeout: 0.5)
        defer { client.close() }
        let started = Deadline.nowMilliseconds()
        do {
            let response = try client.send(headers: [], body: [])
            Issue.record("a final response came: \(response.status)")
        } catch {
            let bounded: Bool =
                switch error {
                case .timedOut(_, let seconds): seconds == 0.5
                case .responseTooLarge(let limit): limit == 1 << 20
                default: false
                }
            #expect(bounded, "\(error)")
        }
        #expect(Deadline.nowMilliseconds() - started < 3_000)
    }

    @Test("bytes past a response end the connection: the next request never reads them as its answer")
    func strayResponse() throws {
        let peer = try RawPeer { number in
            number == 1
                ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nonHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstray"
                : "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo"
        }
        defer { peer.stop() }
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(peer.port)/award"), connectTimeout: 2, responseTimeout: 2)
        defer { client.close() }
        #expect(String(decoding: try client.send(headers: [], body: []).body, as: UTF8.self) == "on")
        #expect(String(decoding: try client.send(headers: [], body: []).body, as: UTF8.self) == "two")
    }

    @Test("stray bytes that come while a kept-alive connection sits idle end it: the next request goes on a new one")
    func strayWhileIdle() throws {
        let (listener, port) = try loopbackListener()
        defer { close(listener) }
        // Looked at before every reuse, however soon after its answer.
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(port)/award"), connectTimeout: 2, responseTimeout: 2,
            idleCheckMicroseconds: 0)
        defer { client.close() }
        try client.start(headers: [], body: [])
        let first = try #require(Self.accepted(on: listener))
        defer { close(first) }
        #expect(Self.readRequest(first))
        Self.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\non", to: first)
        #expect(String(decoding: try client.finish().body, as: UTF8.self) == "on")
        // On loopback the bytes are at the client once the write returns.
        Self.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstray", to: first)
        try client.start(headers: [], body: [])
        let second = try #require(Self.accepted(on: listener), "the request did not come on a new connection")
        defer { close(second) }
        #expect(Self.readRequest(second))
        Self.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo", to: second)
        #expect(String(decoding: try client.finish().body, as: UTF8.self) == "two")
    }

    /// A connection accepted on `listener` within two seconds.
    static func accepted(on listener: Int32) -> Int32? {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 2_000) == 1 else { return nil }
        let connection = accept(listener, nil, nil)
        return connection >= 0 ? connection : nil
    }

    /// Whether a request's bytes arrive on `connection` within two seconds.
    static func readRequest(_ connection: Int32) -> Bool {
        var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 2_000) == 1 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        return buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) } > 0
    }

    static func write(_ text: String, to connection: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

}
