import ContractChecks
import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `paylinks serve`, the built binary on a free loopback port, for one test.
final class SandboxProcess {
    let process = Process()
    let port: Int
    private let errors = Pipe()
    private let output = Pipe()

    /// Starts it with `arguments` on `port`, a free one when 0.
    init(_ arguments: [String] = [], port requested: Int = 0) throws {
        process.executableURL = try BinaryTests.builtExecutable()
        process.arguments = ["serve", "--port", String(requested), "--seed", "1"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PAYLINKS_PUBLISHER_TOKEN"] = nil
        // Each sandbox hashes with a seed of its own, as a user's does.
        environment["SWIFT_DETERMINISTIC_HASHING"] = nil
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The line that says where it listens comes once it listens.
        var text = ""
        while !text.contains("; SIGINT or SIGTERM stops it\n"),
            let byte = try errors.fileHandleForReading.read(upToCount: 1), !byte.isEmpty
        {
            text += String(decoding: byte, as: UTF8.self)
        }
        let address = try #require(text.range(of: "http://127.0.0.1:"))
        port = try #require(Int(text[address.upperBound...].prefix { $0.isNumber }))
        startLine = text
    }

    /// What stderr said up to the line with the address.
    let startLine: String

    /// Stops it with `signal`; its exit status, and what it wrote to stdout and stderr after starting.
    func stop(with signal: Int32 = SIGTERM) -> (status: Int32, stdout: String, stderr: String) {
        kill(process.processIdentifier, signal)
        return ended()
    }

    /// Stops it with SIGTERM, waiting at most `seconds` for it to exit, then SIGKILL: its
    /// exit status (nil when it had not exited in time), the seconds the stop took, and
    /// what it wrote to stdout and stderr after starting.
    func stop(within seconds: Double) -> (status: Int32?, seconds: Double, stdout: String, stderr: String) {
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        let inTime = !process.isRunning || exited.wait(timeout: .now() + seconds) == .success
        let took = Date().timeIntervalSince(start)
        if !inTime { kill(process.processIdentifier, SIGKILL) }
        let (status, stdout, stderr) = ended()
        return (inTime ? status : nil, took, stdout, stderr)
    }

    /// Reads its stderr, as a reader that comes back to it would, until what was read holds
    /// `text` or `seconds` have passed; what was read.
    func readStandardError(until text: String, within seconds: Double) -> String {
        let descriptor = errors.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !String(decoding: received, as: UTF8.self).contains(text) {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard remaining > 0, poll(&entry, 1, remaining) > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether ``closeStandardOutput()`` and ``closeStandardError()`` closed the reading
    /// ends of its stdout and stderr.
    private var standardOutputClosed = false
    private var standardErrorClosed = false

    /// Goes away as the reader of its stdout, as `| head -1` does: the callbacks it writes
    /// from now on have no reader.
    func closeStandardOutput() throws {
        try output.fileHandleForReading.close()
        standardOutputClosed = true
    }

    /// Goes away as the reader of its stderr, as `| grep -m1 'sandbox at'` does once it has
    /// the address: what it logs from now on has no reader.
    func closeStandardError() throws {
        try errors.fileHandleForReading.close()
        standardErrorClosed = true
    }

    /// Its exit status once it has exited, and what it wrote to stdout and stderr after
    /// starting (nothing from a stream whose reader was closed).
    func ended() -> (status: Int32, stdout: String, stderr: String) {
        process.waitUntilExit()
        let stdout =
            standardOutputClosed
            ? "" : String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr =
            standardErrorClosed
            ? "" : String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stdout, stderr)
    }

    /// Posts `body` to Create Checkout Session with the demo publisher token over `client`
    /// (one made for this sandbox when nil); the answer.
    func createSession(_ body: String, over client: HTTPClient? = nil) throws -> HTTPResponse {
        let client = try client ?? HTTPClient(url: try HTTPURL("http://127.0.0.1:\(port)/checkout/v1/session"))
        return try client.sendChecked(
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", DemoCredentials.publisherToken),
            ],
            body: Array(body.utf8))
    }

    /// Runs the test clients' `command` against it; what they print.
    func probe(_ command: String, _ extra: [String] = []) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Clients/sandbox_probe.py")
        let client = Process()
        client.executableURL = URL(fileURLWithPath: try #require(ExampleGameServer.python))
        client.arguments = [script.path, command, String(port)] + extra
        let pipe = Pipe()
        client.standardOutput = pipe
        try client.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        return text
    }

    /// One answer to ``send(_:)``: as it came over the socket.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// Sends each request over a raw socket of its own with exactly its headers (a
    /// browser's `Host` and `Origin` among them, none added); the answers, in order.
    func send(_ requests: [(method: String, path: String, headers: [String: String], body: String)]) throws
        -> [Answer]
    {
        let arguments = try requests.map { request in
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    request.method, request.path, request.headers, request.body,
                ]), as: UTF8.self)
        }
        let answers = try probe("send", arguments).split(separator: "\n").map { line in
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Answer(
                status: try #require(json["status"] as? Int), headers: json["headers"] as? [String: String] ?? [:],
                body: json["body"] as? String ?? "")
        }
        for (request, answer) in zip(requests, answers) {
            let target = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            checkContract(
                method: request.method, path: String(target.first ?? ""),
                query: target.count > 1 ? String(target[1]) : "", headers: request.headers.map { ($0.key, $0.value) },
                body: Array(request.body.utf8), status: answer.status,
                responseHeaders: answer.headers.map { ($0.key, $0.value) },
                responseBody: request.method == "HEAD" ? [] : Array(answer.body.utf8))
        }
        return answers
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The sandbox through real clients: Python's http.client and raw sockets.
@Suite("paylinks serve", .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
struct ServeTests {
    @Test("a session created, paid through the control API, granted at the receiver, and its callback on stdout")
    func flow() throws {
        let receiver = try ExampleGameServer()
        let sandbox = try SandboxProcess(["--award-url", receiver.url, "--json"])
        #expect(sandbox.startLine.contains("note: award callbacks use the demo main key and publisher token"))
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(try sandbox.probe("flow").utf8)) as? [String: Any])
        #expect(summary["create"] as? Int == 201)
        #expect(summary["unauthorized"] as? Int == 401)
        #expect(summary["badRequest"] as? Int == 400)
        #expect(summary["page"] as? Int == 200)
        #expect(summary["escaped"] as? Bool == true)
        #expect(summary["complete"] as? Int == 200)
        #expect(summary["state"] as? String == "charge_succeed")
        #expect(summary["keepAlive"] as? [Int] == [200, 200])
        #expect((summary["parsedUrl"] as? String)?.hasPrefix("http://127.0.0.1:\(sandbox.port)/checkout/") == true)
        let (status, stdout, stderr) = sandbox.stop()
        #expect(status == 0)
        #expect(stderr.hasSuffix("paylinks sandbox stopped\n"))
        #expect(stderr.contains("POST /checkout/v1/session 201\n"))
        #expect(stderr.contains(" attempt 1: granted as grant_1 ("))
        let callback = try #require(
            try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        #expect(callback["callback"] as? String == "onPurchaseSuccess")
        let order = try #require(callback["order"] as? [String: Any])
        #expect(order["purchaseId"] as? String == summary["purchaseId"] as? String)
        #expect(order["paymentMethodName"] as? String == "Mastercard")
        let orderId = try #require(order["orderId"] as? String)
        #expect(try receiver.grants() == [orderId: "grant_1"])
    }

    @Test("--port-file holds the base URL once the sandbox listens, and its health answers there")
    func portFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-port-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("url")
        // The file is written before the line that says where the sandbox listens.
        let sandbox = try SandboxProcess(["--port-file", file.path])
        let url = try String(contentsOf: file, encoding: .utf8)
        #expect(url == "http://127.0.0.1:\(sandbox.port)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["url"], "no partial file left")
        let health = try HTTPClient(url: try HTTPURL(url.trimmingCharacters(in: .newlines) + "/control/v1/health"))
            .sendChecked(method: .get, headers: [], body: [])
        #expect(health.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
        #expect(json["status"] as? String == "ok")
        #expect(json["version"] as? String == Help.version)
        #expect(json["data"] as? Bool == false)
        #expect((json["clock"] as? [String: Any])?["mode"] as? String == "wall")
        #expect(sandbox.stop().status == 0)
        #expect(!FileManager.default.fileExists(atPath: file.path), "no URL is left for a sandbox that stopped")
    }

    @Test("a sandbox on every address writes a URL this machine reaches: loopback, not 0.0.0.0")
    func portFileOnEveryAddress() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-port-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try BinaryTests.run([
            "serve", "--host", "0.0.0.0", "--port", "0", "--port-file", file.path, "--", "sh", "-c",
            #"test "$PAYLINKS_SANDBOX_URL" = "$(cat "$0")" && echo "$PAYLINKS_SANDBOX_URL""#, file.path,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("http://127.0.0.1:"), "\(outcome.stdout)")
    }

    @Test("--port-file that names a directory is refused before anything listens, with the file to give")
    func portFileDirectory() throws {
        let outcome = try BinaryTests.run(["serve", "--port", "0", "--port-file", "/tmp"])
        #expect(outcome.status == ExitCode.cannotCreate.rawValue)
        #expect(
            outcome.stderr
                == "error: --port-file '/tmp' is a directory; give the path of a file to write, such as "
                + "'/tmp/paylinks.url'\n")
    }

    @Test("malformed requests, a malformed chunk size among them, get 400, 413, 431 or 505, and the server goes on")
    func malformed() throws {
        let sandbox = try SandboxProcess()
        let lines = try sandbox.probe("raw").split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "HTTP/1.1 400 Bad Request", "HTTP/1.1 505 HTTP Version Not Supported", "HTTP/1.1 400 Bad Request",
                "HTTP/1.1 400 Bad Request", "HTTP/1.1 413 Content Too Large",
                "HTTP/1.1 431 Request Header Fields Too Large", "HTTP/1.1 400 Bad Request",
            ])
        let (status, _, stderr) = sandbox.stop(with: SIGINT)
        #expect(status == 0)
        // Each has a line in the log, though none has a request line.
        let refusals = stderr.split(separator: "\n").compactMap { line in
            line.hasPrefix("warning: ")
                ? line.firstRange(of: " refused (").map { line[$0.upperBound...].prefix(3) } : nil
        }
        #expect(refusals == ["400", "505", "400", "400", "413", "431", "400"], "\(stderr)")
    }

    @Test(
        "a request the server refuses before the sandbox sees it is answered in the sandbox's JSON problem shape",
        arguments: [
            // A head too large is refused before its request line is read; a bad header after.
            (
                ["X-Big": String(repeating: "a", count: 20_000)], 431,
                "the request line and headers are larger than 16 KiB", "a request"
            ),
            (["Bad Name": "x"], 400, "malformed request: a header's name is empty or holds a blank", "GET /"),
        ])
    func refusedInTheSandboxsWords(headers: [String: String], status: Int, message: String, named: String) throws {
        let sandbox = try SandboxProcess()
        let answers = try sandbox.send([("GET", "/", ["Host": "127.0.0.1"].merging(headers) { $1 }, "")])
        #expect(answers.map(\.status) == [status])
        #expect(answers.first?.headers["Content-Type"] == "application/json")
        #expect(answers.first?.headers["Connection"] == "close")
        #expect(answers.first?.body == #"{"errorCode":\#(status),"errorMessage":"\#(message)"}"#)
        let (exit, _, stderr) = sandbox.stop(with: SIGINT)
        #expect(exit == 0)
        #expect(
            stderr.split(separator: "\n").contains("warning: \(named) refused (\(status)): \(message)"), "\(stderr)")
    }

    // The connection limit, the read time and a stop while a request arrives are tested in
    // process, with short limits and no waiting but for what the server sends:
    // PaylinksHTTPTests' HTTPServerTests.

    @Test("what a client sends reaches the log escaped, one line each: no forged line, no escape sequence")
    func logsCannotBeForged() throws {
        let sandbox = try SandboxProcess()
        let created = try sandbox.createSession(
            #"""
            {"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a\u001b[2J"},
             "customer": {"id": "c"}, "countryCode2": "US", "redirectUrl": "https://x.example/"}
            """#)
        #expect(created.status == 201)
        let purchaseId = try #require(
            String(decoding: created.body, as: UTF8.self).split(separator: "\"").drop { $0 != "purchaseId" }.dropFirst(
                2
            ).first)
        let control = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/control/v1/sessions/\(purchaseId)/complete"))
        defer { control.close() }
        let paid = try control.sendChecked(
            headers: [HTTPHeader("Content-Type", "application/json")],
            body: Array(#"{"choice": "pay", "paymentMethod": "Visa\nawards granted: all\r"}"#.utf8))
        #expect(paid.status == 200)
        let (status, _, stderr) = sandbox.stop()
        #expect(status == 0)
        #expect(stderr.contains("paid with Visa\\u{A}awards granted: all\\u{D}\n"), "\(stderr)")
        #expect(!stderr.contains("\nawards granted"))
        #expect(stderr.contains("session for a\\u{1B}[2J with a redirectUrl"))
        #expect(!stderr.unicodeScalars.contains("\u{1B}"))
    }

    @Test("an offer's name reaches the text callbacks and the log with its C1 and bidirectional controls escaped")
    func callbacksEscaped() throws {
        let sandbox = try SandboxProcess()
        let created = try sandbox.createSession(
            #"""
            {"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "Gold\u009b31m\u0085\u202elive",
             "sku": "a"}, "customer": {"id": "c"}, "countryCode2": "US"}
            """#)
        #expect(created.status == 201)
        let purchaseId = try #require(
            String(decoding: created.body, as: UTF8.self).split(separator: "\"").drop { $0 != "purchaseId" }.dropFirst(
                2
            ).first)
        let control = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/control/v1/sessions/\(purchaseId)/complete"))
        defer { control.close() }
        let paid = try control.sendChecked(
            headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "pay"}"#.utf8))
        #expect(paid.status == 200)
        let (status, stdout, stderr) = sandbox.stop()
        #expect(status == 0)
        #expect(stdout.contains(#"offerName          Gold\u{9B}31m\u{85}\u{202E}live"# + "\n"), "\(stdout)")
        for output in [stdout, stderr] {
            #expect(!output.unicodeScalars.contains { ["\u{9B}", "\u{85}", "\u{202E}"].contains($0) }, "\(output)")
        }
    }

    @Test("past --session-budget, the oldest sessions are forgotten and answer 404; the newest are kept")
    func sessionBudget() throws {
        let sandbox = try SandboxProcess(["--session-budget", "1"])
        let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/checkout/v1/session"))
        defer { client.close() }
        // Three sessions of 400 KiB each: the third cannot fit in 1 MiB beside the first two.
        var purchaseIds: [String] = []
        for number in 1...3 {
            let body =
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": ""#
                + String(repeating: "n", count: 400 << 10)
                + #"", "sku": "starter_pack_001"}, "customer": {"id": "c\#(number)"}, "countryCode2": "US"}"#
            let created = try sandbox.createSession(body, over: client)
            #expect(created.status == 201)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])
            purchaseIds.append(try #require(answer["purchaseId"] as? String))
        }
        var statuses: [Int] = []
        for purchaseId in purchaseIds {
            let session = HTTPClient(
                url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/control/v1/sessions/\(purchaseId)"))
            defer { session.close() }
            statuses.append(try session.sendChecked(method: .get, headers: [], body: []).status)
        }
        #expect(statuses == [404, 200, 200])
        #expect(sandbox.stop().status == 0)
    }

    @Test("serve answers to its address, localhost and each --allowed-host name, and 421 to another name")
    func allowedHosts() throws {
        let sandbox = try SandboxProcess(["--allowed-host", "sandbox.local", "--allowed-host", "Dev.Example"])
        let port = sandbox.port
        let hosts = [
            "127.0.0.1:\(port)", "localhost:\(port)", "sandbox.local:\(port)", "dev.example",
            "rebind.evil.example:\(port)",
        ]
        let answers = try sandbox.send(
            hosts.map { ("GET", "/control/v1/deliveries", ["Host": $0], "") } + [
                ("GET", "/", ["Host": "rebind.evil.example:\(port)"], "")
            ])
        #expect(answers.map(\.status) == [200, 200, 200, 200, 421, 421])
        #expect(answers[4].body.contains("--allowed-host rebind.evil.example"), "\(answers[4].body)")
        #expect(answers[5].headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(sandbox.stop().status == 0)
    }

    @Test("a page of another site changes nothing: its forms and fetches get 403, nothing reaches the game's server")
    func crossSite() throws {
        let receiver = try ExampleGameServer()
        let sandbox = try SandboxProcess(["--award-url", receiver.url])
        let created = try sandbox.createSession(
            #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "starter_pack_001"}, "#
                + #""customer": {"id": "c"}, "countryCode2": "US"}"#)
        let purchaseId = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["purchaseId"] as? String)
        let paid = try sandbox.send([
            (
                "POST", "/control/v1/sessions/\(purchaseId)/complete", ["Content-Type": "application/json"],
                #"{"choice": "pay"}"#
            )
        ])
        #expect(paid.first?.status == 200)
        // The award's delivery is in the history once its attempt has ended.
        let deadline = Date().addingTimeInterval(10)
        while try sandbox.send([("GET", "/control/v1/deliveries", [:], "")]).first?.body.contains("dl_1") != true {
            try #require(Date() < deadline, "the award's delivery never came")
            Thread.sleep(forTimeInterval: 0.05)
        }
        let evil = "http://evil.example"
        let form = "application/x-www-form-urlencoded"
        let answers = try sandbox.send([
            ("POST", "/orders/\(purchaseId)/refund", ["Origin": evil, "Content-Type": form], "outcome=refunded"),
            ("POST", "/orders/\(purchaseId)/dispute", ["Origin": evil, "Content-Type": "text/plain"], "outcome=lost"),
            ("POST", "/deliveries/dl_1/replay", ["Origin": evil, "Content-Type": form], "resign=true"),
            ("POST", "/control/v1/deliveries/dl_1/replay", ["Origin": evil], ""),
            ("POST", "/control/v1/sessions/\(purchaseId)/retry-award", ["Referer": evil + "/a.html"], ""),
            (
                "POST", "/control/v1/sessions/\(purchaseId)/refund", ["Origin": evil, "Content-Type": "text/plain"],
                "{}"
            ),
            // What a page's fetch sends when the browser leaves out Origin and Referer.
            ("POST", "/control/v1/deliveries/dl_1/replay", [:], ""),
            ("POST", "/orders/\(purchaseId)/refund", ["Content-Type": form], "outcome=refunded"),
        ])
        #expect(answers.map(\.status) == [403, 403, 403, 403, 403, 403, 415, 403])
        let state = try sandbox.send([("GET", "/control/v1/sessions/\(purchaseId)", [:], "")])
        #expect(state.first?.body.contains(#""state":"charge_succeed""#) == true, "\(state.first?.body ?? "")")
        let page = try sandbox.send([("GET", "/orders/\(purchaseId)", [:], "")])
        #expect(page.first?.headers["X-Frame-Options"] == "DENY")
        let (status, _, stderr) = sandbox.stop()
        #expect(status == 0)
        #expect(!stderr.contains("replay of dl_1"), "\(stderr)")
        #expect(stderr.components(separatedBy: "award \(purchaseId): POST").count == 2, "one award, the payment's")
        #expect(try receiver.grants().count == 1)
    }

    @Test("a port in use is one error line and exit 69")
    func portInUse() throws {
        let sandbox = try SandboxProcess()
        let second = try BinaryTests.run(["serve", "--port", String(sandbox.port)])
        #expect(second.status == ExitCode.unavailable.rawValue)
        #expect(
            second.stderr.hasSuffix(
                "error: 127.0.0.1:\(sandbox.port) is in use by another program; stop it, or pick another port with --port (0 picks a free one)\n"
            ))
        #expect(sandbox.stop().status == 0)
    }
}
