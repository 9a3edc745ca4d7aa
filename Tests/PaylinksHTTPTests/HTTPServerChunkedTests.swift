import Foundation
import Testing

@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// Chunked request bodies through a real server on loopback: sent by curl, by Python's
/// http.client and by hand, pipelined, too large, stalled; and a chunked Create Checkout
/// Session taken by the sandbox.
@Suite("HTTP server, chunked requests")
struct HTTPServerChunkedTests {
    /// A server that answers each request with its body, its method and path in a header.
    static func echoServer(limits: HTTPServer.Limits = HTTPServer.Limits()) throws -> HTTPServerTests.Running {
        try HTTPServerTests.Running(limits: limits) { request in
            HTTPServerResponse(
                status: 200, contentType: "application/octet-stream",
                headers: [HTTPHeader("X-Request", "\(request.method) \(request.path)")], body: request.body)
        }
    }

    /// Runs `executable` with `arguments`: its status and its standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// 200 KiB that are not all one byte, so that a chunk out of place would show.
    static let payload = Data((0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })

    static let curl = ["/usr/bin/curl", "/usr/local/bin/curl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "curl's chunked upload of a file is read whole",
        .enabled(if: curl != nil || runningInCI, "curl is not installed"))
    func curlChunked() throws {
        let server = try Self.echoServer()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chunked-\(UUID().uuidString)")
        try Self.payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try Self.run(
            try #require(Self.curl),
            [
                "-sS", "--max-time", "10", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)",
                "http://127.0.0.1:\(server.port)/upload",
            ])
        #expect(status == 0)
        #expect(output == Self.payload)
        #expect(server.stop())
    }

    @Test(
        "Python's http.client sending chunked (encode_chunked=True) is read whole, on a kept-alive connection",
        .enabled(if: LoopbackServer.python != nil || runningInCI, "python3 is not installed"))
    func pythonChunked() throws {
        let server = try Self.echoServer()
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
            pieces = [b"{", b'"a": ', b'"' + b"x" * 70000 + b'"', b"}"]
            for _ in range(2):
                connection.request("POST", "/py", body=iter(pieces), encode_chunked=True)
                response = connection.getresponse()
                body = response.read()
                print(response.status, len(body), body == b"".join(pieces))
            """
        let (status, output) = try Self.run(
            try #require(LoopbackServer.python), ["-c", script, String(server.port)])
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self) == "200 70009 True\n200 70009 True\n")
        #expect(server.stop())
    }

    /// What arrives on `client` until it has `count` answers or five seconds pass.
    static func answers(_ client: HTTPServerTests.Client, count: Int) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        while text.components(separatedBy: "HTTP/1.1 ").count - 1 < count && Date() < deadline {
            let chunk = client.read(within: 1000)
            if chunk.isEmpty { break }
            text += chunk
        }
        return text
    }

    @Test("a request pipelined after a chunked one, sent a byte at a time, is answered after it")
    func pipelined() throws {
        let server = try Self.echoServer()
        let client = try HTTPServerTests.Client(port: server.port)
        let text =
            "POST /first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\n"
            + "X-Check: 1\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n"
        for byte in text { client.send(String(byte)) }
        let answer = Self.answers(client, count: 2)
        #expect(answer.contains("X-Request: POST /first\r\nContent-Length: 5\r\n"), "\(answer)")
        #expect(answer.contains("abcdeHTTP/1.1 200 OK\r\n"), "\(answer)")
        #expect(answer.hasSuffix("X-Request: GET /second\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"))
        #expect(server.stop())
    }

    @Test("a chunk that would pass the body's limit is 413 at once, its data not awaited")
    func tooLarge() throws {
        var limits = HTTPServer.Limits()
        limits.bodySize = 1024
        let server = try Self.echoServer(limits: limits)
        let client = try HTTPServerTests.Client(port: server.port)
        client.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n")
        client.send(String(repeating: "a", count: 1024) + "\r\n1\r\n")
        let answer = client.read(within: 5000)
        #expect(answer.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(answer)")
        #expect(answer.hasSuffix("Connection: close\r\n\r\nrefused: the body is larger than 1 KiB"), "\(answer)")
        #expect(server.stop())
    }

    @Test("a chunked body that stalls is answered 408 once the read time is up, as one with a length is")
    func stalled() throws {
        var limits = HTTPServer.Limits()
        limits.readMilliseconds = 300
        let server = try Self.echoServer(limits: limits)
        let client = try HTTPServerTests.Client(port: server.port)
        let started = Date()
        client.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
        let answer = client.read(within: 5000)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(Date().timeIntervalSince(started) >= 0.3, "not before the read time")
        #expect(server.stop())
    }

    @Test(
        "malformed chunked framing is refused, the connection closed",
        arguments: [
            ("Transfer-Encoding: chunked\r\n\r\ng\r\n", "400 Bad Request"),
            ("Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n0\r\n\r\n", "400 Bad Request"),
            ("Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", "400 Bad Request"),
            ("Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501 Not Implemented"),
            ("Transfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", "400 Bad Request"),
        ])
    func refused(head: String, status: String) throws {
        let server = try Self.echoServer()
        let client = try HTTPServerTests.Client(port: server.port)
        client.send("POST / HTTP/1.1\r\nHost: x\r\n" + head)
        let answer = client.read(within: 5000)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer)")
        #expect(answer.contains("Connection: close\r\n"), "\(answer)")
        #expect(server.stop())
    }

    @Test("the sandbox takes a chunked Create Checkout Session through its server")
    func sandboxCreatesFromChunks() throws {
        let served = try SandboxLinkOutTests.Served()
        let body = Array(SandboxLinkOutTests.body(redirectUrl: nil).utf8)
        var chunks = ""
        for start in stride(from: 0, to: body.count, by: 17) {
            let piece = body[start..<min(start + 17, body.count)]
            chunks += String(piece.count, radix: 16) + "\r\n" + String(decoding: piece, as: UTF8.self) + "\r\n"
        }
        let client = try HTTPServerTests.Client(port: served.port)
        client.send(
            "POST /checkout/v1/session HTTP/1.1\r\n\(served.host)\r\nContent-Type: application/json\r\n"
                + "x-publisher-token: \(SandboxLinkOutTests.token)\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n" + chunks + "0\r\n\r\n")
        let answer = Self.answers(client, count: 1)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") || answer.hasPrefix("HTTP/1.1 201 "), "\(answer)")
        let json = try SandboxLinkOutTests.json(String(answer.split(separator: "\r\n\r\n", maxSplits: 1).last ?? ""))
        #expect(json["checkoutSessionToken"] is String && json["purchaseId"] is String, "\(answer)")
    }
}
