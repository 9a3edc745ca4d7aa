import Foundation
import Testing

@testable import PaylinksHTTP

/// An answer its application gives later: the connection waits for it, what it pipelined
/// behind it is handled only once it is given, and every other connection is served
/// meanwhile. Each wait is for a signal, bounded.
@Suite("Awaited answers")
struct AwaitedAnswerTests {
    /// A server whose `POST /wait` is answered through a promise the test gives, and whose
    /// `GET /given` says whether it was given when it was handled.
    final class Served: @unchecked Sendable {
        let promise = HTTPPromise()
        let server: HTTPServer
        private let stopping = Locked(false)
        private let finished = DispatchSemaphore(value: 0)
        /// Signalled once the responder is asked for the awaited answer.
        let asked = DispatchSemaphore(value: 0)

        init() throws {
            server = try HTTPServer(host: "127.0.0.1", port: 0, loops: 2, refusal: HTTPServerTests.plainRefusal)
            let promise = promise
            let asked = asked
            let responder = TestResponder(
                stopping: { [stopping] in stopping.withLock { $0 } },
                answer: { request in
                    if request.path == "/wait" {
                        asked.signal()
                        return .awaited(promise)
                    }
                    let given = promise.response == nil ? "not given" : "given"
                    return .ready(HTTPServerResponse(status: 200, contentType: "text/plain", body: Array(given.utf8)))
                })
            Thread { [self] in
                server.run(responder)
                finished.signal()
            }.start()
        }

        func stop() -> Bool {
            stopping.withLock { $0 = true }
            return finished.wait(timeout: .now() + 5) == .success
        }
    }

    @Test("a request pipelined behind an awaited answer is handled after it is given; other clients meanwhile")
    func pipelinedWaits() throws {
        let served = try Served()
        let waiting = try HTTPServerTests.Client(port: served.server.port)
        waiting.send(
            "POST /wait HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\nGET /given HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(served.asked.wait(timeout: .now() + 5) == .success)
        let other = try HTTPServerTests.Client(port: served.server.port)
        other.send("GET /given HTTP/1.1\r\nHost: x\r\n\r\n")
        let otherAnswer = other.read(within: 5000)
        #expect(otherAnswer.hasSuffix("not given"), "another client is served while the answer waits: \(otherAnswer)")
        #expect(waiting.read(within: 100).isEmpty, "nothing goes out before the awaited answer")
        served.promise.give(HTTPServerResponse(status: 202, contentType: "text/plain", body: Array("moved".utf8)))
        var received = ""
        for _ in 0..<50 where !received.hasSuffix("given") || !received.contains("moved") {
            received += waiting.read(within: 100)
        }
        #expect(received.hasPrefix("HTTP/1.1 202"), "\(received)")
        let moved = try #require(received.range(of: "moved"))
        #expect(received[moved.upperBound...].contains("HTTP/1.1 200"))
        #expect(received.hasSuffix("\r\n\r\ngiven"), "the request behind it was handled once it was given: \(received)")
        #expect(served.stop())
    }

    /// A responder that holds every answer of a batch and gives them at its end, saying
    /// in `calls` what the server called, in order.
    final class Holding: HTTPResponder, @unchecked Sendable {
        let calls = Locked<[String]>([])
        let stopping = Locked(false)
        private var held: [(HTTPPromise, String)] = []

        func prepare(_ request: HTTPRequest) -> HTTPRequest { request }

        func beginBatch() { calls.withLock { $0.append("begin") } }

        func respond(to request: HTTPRequest) -> HTTPAnswer {
            calls.withLock { $0.append(request.path) }
            let promise = HTTPPromise()
            held.append((promise, request.path))
            return .awaited(promise)
        }

        func endBatch() {
            calls.withLock { $0.append("end") }
            for (promise, path) in held {
                promise.give(HTTPServerResponse(status: 200, contentType: "text/plain", body: Array(path.utf8)))
            }
            held = []
        }

        var isStopping: Bool { stopping.withLock { $0 } }
    }

    @Test("answers a responder holds until the end of their batch go out then, each connection's in its order")
    func heldUntilTheBatchEnds() throws {
        let responder = Holding()
        let server = try HTTPServer(host: "127.0.0.1", port: 0, loops: 1, refusal: HTTPServerTests.plainRefusal)
        let finished = DispatchSemaphore(value: 0)
        let running = (server: server, responder: responder)
        nonisolated(unsafe) let handed = running
        Thread {
            handed.server.run(handed.responder)
            finished.signal()
        }.start()
        let client = try HTTPServerTests.Client(port: server.port)
        client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        var received = ""
        for _ in 0..<50 where !received.hasSuffix("/b") { received += client.read(within: 100) }
        #expect(received.hasPrefix("HTTP/1.1 200"), "\(received)")
        let first = try #require(received.range(of: "/a"))
        #expect(received[first.upperBound...].hasSuffix("/b"), "\(received)")
        let calls = responder.calls.withLock { $0 }
        #expect(calls == ["begin", "/a", "end", "begin", "/b", "end"], "the second waits for the first: \(calls)")
        responder.stopping.withLock { $0 = true }
        #expect(finished.wait(timeout: .now() + 5) == .success)
    }
}
