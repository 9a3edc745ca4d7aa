import Foundation
import PaylinksHTTP
import Testing

/// A Python server on the loopback address, started for one test and stopped after it.
final class LoopbackServer {
    let process = Process()
    let input = Pipe()
    let port: Int

    static let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    init(script: String, arguments: [String] = []) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Servers/\(script)")
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = [path.path] + arguments
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) {
            line += byte
        }
        port = try #require(Int(String(decoding: line, as: UTF8.self)))
    }

    func url(_ path: String, host: String = "127.0.0.1") throws -> HTTPURL {
        let shown = host.contains(":") ? "[\(host)]" : host
        return try HTTPURL("http://\(shown):\(port)\(path)")
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

@Suite("HTTP client", .enabled(if: LoopbackServer.python != nil || runningInCI, "python3 is not installed"))
struct HTTPClientTests {
    @Test("a request and its Content-Length response, twice over one kept-alive connection")
    func keepAlive() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let client = HTTPClient(url: try server.url("/echo"))
        for body in ["{}", #"{"a":"Starter Pack — ✓"}"#] {
            let response = try client.send(headers: [HTTPHeader("signature", "t=1,v1=ab")], body: Array(body.utf8))
            #expect(response.status == 200)
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == #"{"method":"POST","length":\#(body.utf8.count),"signature":"t=1,v1=ab"}"#)
        }
        client.close()
    }

    @Test("a chunked response is put together; one that runs to the close is read to the end")
    func codings() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let chunked = try HTTPClient(url: try server.url("/chunked")).send(headers: [], body: [])
        #expect(String(decoding: chunked.body, as: UTF8.self) == #"{"publisherPurchaseId":"chunky"}"#)
        let closing = HTTPClient(url: try server.url("/close"))
        #expect(String(decoding: try closing.send(headers: [], body: []).body, as: UTF8.self) == "until the end")
        #expect(try closing.send(headers: [], body: []).status == 200, "the client opens a new connection")
    }

    @Test("a redirect is returned, not followed")
    func noRedirects() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let response = try HTTPClient(url: try server.url("/redirect")).send(headers: [], body: [])
        #expect(response.status == 302)
        #expect(response.header("location") == "/echo")
    }

    @Test("a response over the cap and one past the timeout fail with their reason")
    func limits() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        #expect(throws: HTTPError.responseTooLarge(limit: 1 << 20)) {
            try HTTPClient(url: try server.url("/big")).send(headers: [], body: [])
        }
        #expect(throws: HTTPError.timedOut(phase: "waiting for the response", seconds: 1)) {
            try HTTPClient(url: try server.url("/slow"), responseTimeout: 1).send(headers: [], body: [])
        }
    }

    @Test("IPv6 and localhost reach the server; a closed port is refused")
    func addresses() throws {
        let server = try LoopbackServer(script: "echo_server.py", arguments: ["::1"])
        #expect(try HTTPClient(url: try server.url("/echo", host: "::1")).send(headers: [], body: []).status == 200)
        let v4 = try LoopbackServer(script: "echo_server.py")
        #expect(try HTTPClient(url: try v4.url("/echo", host: "localhost")).send(headers: [], body: []).status == 200)
        #expect(throws: HTTPError.self) {
            try HTTPClient(url: try HTTPURL("http://127.0.0.1:1/award"), connectTimeout: 2).send(headers: [], body: [])
        }
    }

    @Test(
        "URLs paylinks cannot use are refused with the reason",
        arguments: [
            ("https://example.com/award", "https is not supported"), ("ftp://x/y", "give an http:// URL"),
            ("http://user@127.0.0.1/x", "credentials"), ("http://127.0.0.1:99999/x", "port"), ("http:///x", "no host"),
            ("http://[::1/x", "closed with ]"), ("http://127.0.0.1/a b", "spaces"),
        ])
    func badURLs(text: String, reason: String) {
        #expect {
            try HTTPURL(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("URLs are read into host, port and path")
    func goodURLs() throws {
        #expect(try HTTPURL("http://127.0.0.1:8080/award?x=1#f") == HTTPURL("http://127.0.0.1:8080/award?x=1"))
        let v6 = try HTTPURL("http://[::1]:9/a")
        #expect(v6.host == "::1" && v6.port == 9 && v6.target == "/a")
        #expect(try HTTPURL("http://localhost").target == "/")
        #expect(try HTTPURL("http://localhost").port == 80)
    }
}
