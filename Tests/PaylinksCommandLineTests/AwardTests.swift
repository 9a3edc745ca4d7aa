import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksDelivery
@testable import PaylinksFixtures
@testable import PaylinksHTTP
@testable import PaylinksKit

/// The example award receiver, started on a free loopback port for one test.
final class ExampleGameServer {
    let process = Process()
    let port: Int

    static let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The example server, with `flaw` switched on and its other `options`; or, given
    /// `script`, that Python program, which prints the port it listens on first, as the
    /// example does.
    init(flaw: String? = nil, options: [String] = [], script: String? = nil, environment: [String: String] = [:])
        throws
    {
        let example = DocumentedCommands.root.appendingPathComponent("Examples/game-server/server.py")
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments =
            script.map { ["-c", $0] } ?? [example.path, "0"] + (flaw.map { ["--flaw", $0] } ?? []) + options
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) {
            line += byte
        }
        port = try #require(Int(String(decoding: line, as: UTF8.self)))
    }

    var url: String { "http://127.0.0.1:\(port)/award" }

    /// The receiver's grants, by order id.
    func grants() throws -> [String: String] {
        let response = try HTTPClient(url: try HTTPURL("http://127.0.0.1:\(port)/grants")).send(
            method: .get, headers: [], body: [])
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["grants"] as? [String: String] ?? [:]
    }

    /// The money the receiver recorded of each order, by order id, as its award said it.
    func money() throws -> [String: [String: Any]] {
        let response = try HTTPClient(url: try HTTPURL("http://127.0.0.1:\(port)/grants")).send(
            method: .get, headers: [], body: [])
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["money"] as? [String: [String: Any]] ?? [:]
    }

    deinit {
        // SIGKILL: the test process may block SIGTERM for its children. One that has exited
        // (a flaw that ends the server) is left alone: its number may be another's by now.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Awards sent to the example receiver, and the audit of it and of its broken variants.
@Suite("Award callbacks", .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
struct AwardTests {
    /// The built binary's run: its exit status and both streams.
    func paylinks(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryTests.Outcome {
        try BinaryTests.run(arguments, environment: environment)
    }

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("each paid order is granted on the game's server under the order id the client gets")
    func grantsMatchTheCallbacks() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks([
            "purchase", "--sku", "builders_bundle", "--count", "3", "--award-url", receiver.url, "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("note: award callbacks use the demo main key and publisher token"))
        let lines = try Self.lines(outcome.stdout)
        let orders = lines.compactMap { ($0["order"] as? [String: Any])?["orderId"] as? String }
        let granted = lines.compactMap { ($0["award"] as? [String: Any])?["publisherPurchaseId"] as? String }
        #expect(orders.count == 3)
        let ledger = try receiver.grants()
        #expect(Set(ledger.keys) == Set(orders))
        #expect(orders.map { ledger[$0] } == granted)
        #expect(outcome.stdout.split(separator: "\n")[1].hasPrefix(#"{"award":{"attempt":1,"#))
        let validator = try SchemaValidator(file: SchemaTests.callbackSchema)
        for line in outcome.stdout.split(separator: "\n") {
            let errors = validator.errors(in: try SchemaTests.parse(line))
            #expect(errors.isEmpty, "\(errors)\n\(line)")
        }
    }

    @Test("the example records each order's tax and the studio's net as the award says them: a German $9.99")
    func moneyRecorded() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks([
            "purchase", "--sku", "builders_bundle", "--country", "DE", "--award-url", receiver.url, "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let orderId = try #require(
            try Self.lines(outcome.stdout).compactMap { ($0["order"] as? [String: Any])?["orderId"] as? String }.first)
        let money = try #require(try receiver.money()[orderId])
        #expect(money["currency"] as? String == "EUR" && money["priceInCents"] as? Int == 1099)
        #expect(money["tax"] as? Int == 175 && money["net"] as? Int == 810)
    }

    @Test("a load of awards over several connections grants every order once and ends with its figures")
    func load() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "60", "--award-url", receiver.url, "--concurrency", "4",
            "--json", "--seed", "7", "--now", "1718182312",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try Self.lines(outcome.stdout)
        let orders = lines.compactMap { ($0["order"] as? [String: Any])?["orderId"] as? String }
        #expect(orders.count == 60)
        #expect(Set(try receiver.grants().keys) == Set(orders))
        let summary = try #require(outcome.stderr.split(separator: "\n").last)
        #expect(summary.hasPrefix("awards: 60 in "))
        #expect(summary.contains(" over 4 connections: "))
        #expect(summary.contains("latency p50 ") && summary.contains(", max "))
        #expect(summary.hasSuffix("; 60 attempts; no failures"))
        // Between the award lines, the callbacks are exactly those of the same run without awards.
        let callbacks = outcome.stdout.split(separator: "\n").filter { !$0.hasPrefix(#"{"award":"#) }
        let plain = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "60", "--json", "--seed", "7", "--now", "1718182312",
        ])
        #expect(callbacks == plain.stdout.split(separator: "\n"))
        // And as text: the blocks of the callbacks, those of the award attempts taken out.
        let text = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "60", "--award-url", receiver.url, "--concurrency", "4",
            "--seed", "7", "--now", "1718182312",
        ])
        let plainText = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "60", "--seed", "7", "--now", "1718182312",
        ])
        let blocks = text.stdout.components(separatedBy: "\n\n").filter { !$0.hasPrefix("award attempt") }
        #expect(blocks.count == 62)
        #expect(blocks == plainText.stdout.components(separatedBy: "\n\n"))
        let refused = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "5", "--award-url", "http://127.0.0.1:1/award",
            "--concurrency", "2",
        ])
        #expect(refused.status == ExitCode.purchaseFailed.rawValue)
        #expect(refused.stderr.hasSuffix("; 15 attempts; 5 failed: 5 connection refused by 127.0.0.1\n"))
        // Each checkout, predicted ones too, ends in the failure of its award, after its three attempts.
        let refusedLines = try paylinks([
            "purchase", "--sku", "starter_pack_001", "--count", "5", "--award-url", "http://127.0.0.1:1/award",
            "--concurrency", "2", "--json",
        ]).stdout.split(separator: "\n")
        #expect(refusedLines.count { $0.hasPrefix(#"{"award":{"attempt":"#) } == 15)
        #expect(refusedLines.count { $0.hasPrefix(#"{"callback":"onPurchaseFailed","error":{"code":3003,"#) } == 5)
        #expect(!refusedLines.contains { $0.contains("onPurchaseSuccess") })
    }

    @Test("a scenario sends its paid orders' awards to its awardUrl")
    func scenarioAwards() throws {
        let receiver = try ExampleGameServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("award-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("awards.json")
        try Data(
            #"""
            {"configuration": {"awardUrl": "\#(receiver.url)"},
             "steps": [{"step": "initialize"},
               {"step": "purchase", "sku": "starter_pack_001", "expect": {"callback": "onPurchaseSuccess"}},
               {"step": "cancel", "sku": "starter_pack_001", "expect": {"code": 3002}}]}
            """#.utf8
        ).write(to: file)
        let outcome = try paylinks(["run", file.path, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try Self.lines(outcome.stdout)
        let awards = lines.filter { $0["award"] != nil }
        #expect(awards.count == 1, "a cancel sends no award")
        #expect(awards.first?["step"] as? Int == 2)
        // Tagged as a callback line is: the scenario and step first.
        let awardLine = outcome.stdout.split(separator: "\n").first { $0.contains(#""award":"#) }
        #expect(
            awardLine?.hasPrefix(#"{"scenario":"awards","step":2,"award":{"attempt":1,"#) == true, "\(outcome.stdout)")
        #expect(try receiver.grants().count == 1)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"configuration": {"awardUrl": "https://x.example.com/a"}, "steps": [{"step": "initialize"}]}"#.utf8)
            .write(to: bad)
        let refused = try paylinks(["run", bad.path])
        #expect(refused.status == ExitCode.dataError.rawValue)
        #expect(refused.stderr.contains("configuration.awardUrl"))
    }

    @Test("an award every attempt of which is refused fails the purchase with 3003 and the full order")
    func refusedAward() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks(
            ["purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--json"],
            environment: ["PAYLINKS_MAIN_KEY": "not-the-receivers-key"])
        #expect(outcome.status == ExitCode.purchaseFailed.rawValue)
        let lines = try Self.lines(outcome.stdout)
        let attempts = lines.compactMap { $0["award"] as? [String: Any] }
        #expect(attempts.map { $0["sentAfterMilliseconds"] as? Int } == [0, 10_000, 20_000])
        #expect(attempts.allSatisfy { $0["status"] as? Int == 401 && $0["granted"] as? Bool == false })
        let failure = try #require(lines.last)
        let error = try #require(failure["error"] as? [String: Any])
        #expect(error["code"] as? Int == 3003)
        let data = try #require(error["data"] as? String)
        #expect(data.contains(#""lastStatus":401"#))
        #expect(data.contains(#""publisherErrorMessage":"signature mismatch""#))
        let order = try #require(failure["order"] as? [String: Any])
        #expect((order["orderId"] as? String)?.isEmpty == false)
        #expect(order["paymentMethodName"] as? String == "Visa")
        #expect(try receiver.grants().isEmpty)
    }

    @Test("an endpoint that does not answer is three failed attempts, each saying why")
    func unreachable() throws {
        let outcome = try paylinks(["purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:1/award"])
        #expect(outcome.status == ExitCode.purchaseFailed.rawValue)
        #expect(outcome.stdout.components(separatedBy: "  failed  connection refused by 127.0.0.1:1").count - 1 == 3)
    }

    @Test("the main key never shows, in output, trace or errors; the signature does in the trace")
    func keyStaysSecret() throws {
        let receiver = try ExampleGameServer(environment: ["GAME_SERVER_MAIN_KEY": "s3cr3t-main-key-123"])
        let outcome = try paylinks(
            ["purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--trace"],
            environment: [
                "PAYLINKS_MAIN_KEY": "s3cr3t-main-key-123", "PAYLINKS_PUBLISHER_TOKEN": "paylinks-demo-publisher-token",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("s3cr3t") && !outcome.stderr.contains("s3cr3t"))
        #expect(outcome.stderr.contains("signature: t="))
        #expect(!outcome.stderr.contains("note: award callbacks use the demo"))
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try Data("s3cr3t-main-key-123\n".utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let fromFile = try paylinks(
            [
                "purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--main-key-file", keyFile.path,
                "--publisher-token", "paylinks-demo-publisher-token",
            ])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stderr.isEmpty)
    }

    @Test("the audit passes the example receiver in every case")
    func auditPasses() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks(["check-award", receiver.url, "--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let lines = try Self.lines(outcome.stdout)
        #expect(lines.dropLast().map { $0["case"] as? String } == AwardAudit.caseNames.map { $0 })
        #expect(lines.dropLast().allSatisfy { $0["verdict"] as? String == "pass" })
        let summary = try #require(lines.last?["summary"] as? [String: Any])
        #expect(summary["pass"] as? Int == AwardAudit.caseNames.count)
    }

    @Test(
        "the audit catches each broken receiver with the right finding",
        arguments: [
            ("any-signature", ["signature-digit", "body-changed", "other-key", "body-only"]),
            ("grant-twice", ["race"]),
            ("reserialize", ["names-unicode"]),
            ("no-time-check", ["stale-t", "t-seconds"]),
            ("strip-spaces", ["names-spaces"]),
            ("reserialize-500", SignatureForgery.allCases.map(\.rawValue) + ["names-slash-quotes", "names-unicode"]),
        ])
    func auditCatches(flaw: String, failing: [String]) throws {
        let receiver = try ExampleGameServer(flaw: flaw)
        let outcome = try paylinks(["check-award", receiver.url, "--json"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        let failed = try Self.lines(outcome.stdout).filter { $0["verdict"] as? String == "fail" }
        #expect(failed.map { $0["case"] as? String } == failing.map { $0 })
        #expect(
            failed.allSatisfy { ($0["again"] as? String)?.hasSuffix("--case \($0["case"] as? String ?? "")") == true })
    }

    @Test(
        "valid is the plainest callback: names of ASCII letters without spaces or slashes, so that each names case names its own flaw"
    )
    func plainValid() throws {
        let endpoint = try EventReceiver { _, _ in
            HTTPServerResponse(
                status: 200, contentType: "application/json", body: Array(#"{"publisherPurchaseId":"g1"}"#.utf8))
        }
        let outcome = try paylinks(
            ["check-award", endpoint.url.replacingOccurrences(of: "/events", with: "/award"), "--case", "valid"],
            environment: Self.studioKeys)
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let body = try #require(endpoint.received.first?.body)
        #expect(
            body.allSatisfy { (0x21..<0x7F).contains($0) && $0 != UInt8(ascii: "/") },
            "\(String(decoding: body, as: UTF8.self))")
        // A verifier that hashes the body without its spaces grants valid, and fails the case built for it.
        let receiver = try ExampleGameServer(flaw: "strip-spaces")
        let audit = try paylinks(["check-award", receiver.url, "--json"], environment: Self.studioKeys)
        let findings = try Self.lines(audit.stdout).dropLast()
        #expect(findings.first?["verdict"] as? String == "pass", "\(audit.stdout)")
        let spaces = try #require(findings.first { $0["case"] as? String == "names-spaces" })
        #expect(spaces["verdict"] as? String == "fail")
        #expect((spaces["why"] as? String)?.contains("hashes something other than the raw bytes received") == true)
    }

    @Test("a names case refused with a 5xx says the verifier hashes something other than the raw bytes, as a 4xx does")
    func serverErrorOnNames() throws {
        let receiver = try ExampleGameServer(flaw: "reserialize-500")
        let outcome = try paylinks(
            ["check-award", receiver.url, "--case", "names-unicode", "--case", "names-slash-quotes"],
            environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        for name in ["names-slash-quotes", "names-unicode"] {
            let block = try #require(outcome.stdout.components(separatedBy: "FAIL  ").first { $0.hasPrefix(name) })
            #expect(block.contains("a valid callback was refused (500)"), "\(block)")
            #expect(
                block.contains(
                    "the verifier hashes something other than the raw bytes received (re-serialized JSON, with "),
                "\(block)")
        }
    }

    @Test(
        "check-award pointed at an events handler says so in valid; an award endpoint that answers no grant is not taken for one"
    )
    func eventsHandlerGiven() throws {
        let receiver = try ExampleGameServer()
        let outcome = try paylinks(
            ["check-award", "http://127.0.0.1:\(receiver.port)/events", "--case", "valid", "--case", "retry"],
            environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        #expect(outcome.stdout.hasPrefix("FAIL  valid  this URL answers like an events handler"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("n/a   retry"))
        let statusOk = try ExampleGameServer(flaw: "status-ok")
        let answer = try paylinks(["check-award", statusOk.url, "--case", "valid"], environment: Self.studioKeys)
        #expect(answer.stdout.hasPrefix("FAIL  valid  a valid callback was not granted: answered 200 without"))
        #expect(!answer.stdout.contains("events handler"), "\(answer.stdout)")
    }

    @Test(
        "an endpoint that stops answering mid-audit leaves the rest 'not checked', says so in one line, and is not green"
    )
    func endpointStops() throws {
        let receiver = try ExampleGameServer(flaw: "die-after-grant")
        let outcome = try paylinks(["check-award", receiver.url, "--json"], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.unavailable.rawValue, "\(outcome.stdout)")
        let lines = try Self.lines(outcome.stdout)
        let findings = lines.dropLast()
        #expect(findings.map { $0["case"] as? String } == AwardAudit.caseNames.map { $0 })
        #expect(findings.first?["verdict"] as? String == "pass")
        for finding in findings.dropFirst() {
            #expect(finding["verdict"] as? String == "not-checked", "\(finding)")
            #expect(finding["summary"] as? String == "not checked: the endpoint stopped answering after valid")
        }
        let summary = try #require(lines.last?["summary"] as? [String: Any])
        #expect(summary["notChecked"] as? Int == AwardAudit.caseNames.count - 1)
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix(
                "error: the endpoint \(receiver.url) stopped answering after valid (connection refused by "),
            "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("; 19 cases were not checked: restart it and run the audit again\n"))
    }

    @Test(
        "an endpoint that crashes on its first valid callback fails valid saying so, and the forgeries are not checked, not failed"
    )
    func endpointCrashesOnValid() throws {
        // An agent that crashes on the first callback it verifies: the connection drops, unanswered,
        // and nothing listens any more.
        let crashing = try ExampleGameServer(
            script: """
                import os, socket
                server = socket.socket()
                server.bind(("127.0.0.1", 0))
                server.listen(8)
                print(server.getsockname()[1], flush=True)
                connection, _ = server.accept()
                connection.recv(65536)
                os._exit(1)
                """)
        let outcome = try paylinks(["check-award", crashing.url], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stdout)")
        #expect(outcome.stdout.hasPrefix("FAIL  valid  "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("nothing answers since: did the callback bring the endpoint down?"))
        #expect(!outcome.stdout.contains("break the connection"), "\(outcome.stdout)")
        #expect(
            outcome.stdout.contains(
                "----  signature-digit     not checked: the endpoint stopped answering during valid\n"))
        #expect(outcome.stdout.hasSuffix(": 20 cases: 0 pass, 1 FAIL, 0 warn, 19 not checked\n"), "\(outcome.stdout)")
        #expect(outcome.stderr.hasPrefix("error: the endpoint \(crashing.url) stopped answering during valid"))
    }

    @Test("an endpoint that crashes on the first request of retry fails retry, saying so, not valid's 'after'")
    func endpointCrashesOnRetry() throws {
        // An endpoint that grants the first callback and exits on the second, unanswered.
        let crashing = try ExampleGameServer(
            script: """
                import os, socket
                server = socket.socket()
                server.bind(("127.0.0.1", 0))
                server.listen(8)
                print(server.getsockname()[1], flush=True)
                connection, _ = server.accept()
                connection.recv(65536)
                body = b'{"publisherPurchaseId":"grant_1"}'
                connection.sendall(
                    b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\n"
                    + b"Content-Length: " + str(len(body)).encode() + b"\\r\\n\\r\\n" + body)
                connection.close()
                connection, _ = server.accept()
                connection.recv(65536)
                os._exit(1)
                """)
        let outcome = try paylinks(["check-award", crashing.url], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stdout)")
        #expect(outcome.stdout.hasPrefix("pass  valid "), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\nFAIL  retry "), "\(outcome.stdout)")
        #expect(
            outcome.stdout.contains("; and the endpoint went down on this request: did it bring it down?\n"),
            "\(outcome.stdout)")
        #expect(
            outcome.stdout.contains(
                "----  race                not checked: the endpoint stopped answering during retry\n"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.hasSuffix(": 20 cases: 1 pass, 1 FAIL, 0 warn, 18 not checked\n"), "\(outcome.stdout)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("error: the endpoint \(crashing.url) stopped answering during retry"))
    }

    @Test(
        "the example server's --help prints its usage; an unknown flaw, a bad port or a bad --clock-url is one line and exit 2"
    )
    func exampleUsage() throws {
        func example(_ arguments: [String]) throws -> BinaryTests.Outcome {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(ExampleGameServer.python))
            process.arguments =
                [DocumentedCommands.root.appendingPathComponent("Examples/game-server/server.py").path] + arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let stdout = output.fileHandleForReading.readDataToEndOfFile()
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return BinaryTests.Outcome(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
        for help in ["--help", "-h"] {
            let usage = try example([help])
            #expect(usage.status == 0, "\(usage.stderr)")
            #expect(usage.stdout.hasPrefix("Run it:  python3 server.py [PORT]"), "\(usage.stdout)")
            #expect(usage.stdout.contains("`--flaw NAME` makes it wrong on purpose"))
            #expect(usage.stdout.contains("Clock:   --clock-url URL takes \"now\""), "\(usage.stdout)")
            #expect(usage.stdout.contains("events-down (every\nevent answered 503"), "\(usage.stdout)")
            #expect(usage.stderr.isEmpty, "\(usage.stderr)")
        }
        for arguments in [
            ["--flaw", "no-such-flaw"], ["eighty"], ["70000"], ["--flaw"], ["--clock-url"],
            ["0", "--clock-url", "ftp://x/"],
            ["--clock-url", "http://[::1/control/v1/clock"],
            ["--clock-url", "http://127.0.0.1:99999/control/v1/clock"],
        ] {
            let refused = try example(arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("server.py: "), "\(refused.stderr)")
        }
    }

    @Test("check-award --help and check-events --help list every case, each with a few words")
    func helpListsCases() throws {
        for (command, names) in [("check-award", AwardAudit.caseNames), ("check-events", EventAudit.caseNames)] {
            let help = try paylinks([command, "--help"])
            #expect(help.status == 0)
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex { $0.hasPrefix("CASES") }, "\(help.stdout)")
            let listed = lines[(start + 1)...].prefix { !$0.isEmpty }
            #expect(listed.count == names.count, "\(help.stdout)")
            for (line, name) in zip(listed, names) {
                #expect(line.hasPrefix("  \(name)  "), "\(line)")
                #expect(line.split(separator: " ").count > 2, "\(line)")
            }
        }
    }

    @Test("--case runs one case again; a case that does not exist is a usage error with the closest")
    func oneCase() throws {
        let receiver = try ExampleGameServer(flaw: "no-time-check")
        let outcome = try paylinks(["check-award", receiver.url, "--case", "stale-t"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        #expect(outcome.stdout.hasPrefix("FAIL  stale-t  accepted (200)"))
        let typo = try paylinks(["check-award", receiver.url, "--case", "stale"])
        #expect(typo.status == ExitCode.usage.rawValue)
        #expect(typo.stderr.contains("did you mean 'stale-t'?"))
    }

    @Test("--case given several times runs each case named, in the audit's order, once each")
    func severalCases() throws {
        let receiver = try ExampleGameServer(flaw: "no-time-check")
        let outcome = try paylinks(
            [
                "check-award", receiver.url, "--case", "t-seconds", "--case", "stale-t", "--case", "retry", "--case",
                "stale-t", "--json",
            ],
            environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stderr)")
        let findings = try Self.lines(outcome.stdout).dropLast()
        #expect(findings.map { $0["case"] as? String } == ["retry", "stale-t", "t-seconds"])
        #expect(findings.map { $0["verdict"] as? String } == ["pass", "fail", "fail"])
    }

    @Test("with nothing listening, check-award says so in one line and exits 69 within seconds")
    func nothingListens() throws {
        let started = Date()
        let outcome = try paylinks(["check-award", "http://127.0.0.1:1/award"], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.unavailable.rawValue)
        #expect(outcome.stdout.isEmpty, "no case is reported, none passes")
        #expect(
            outcome.stderr
                == "error: nothing answers at http://127.0.0.1:1/award: connection refused by 127.0.0.1:1: is the "
                + "server running?; start the game's award endpoint, or check the URL\n")
        #expect(Date().timeIntervalSince(started) < 10)
        // A host that does not resolve is the same (asked of no resolver here: the tests talk to loopback only).
        #expect(HTTPError.cannotResolve(host: "no-such-host").meansNothingListens)
        #expect(HTTPError.timedOut(phase: "connecting", seconds: 10).meansNothingListens)
        #expect(!HTTPError.timedOut(phase: "reading the response", seconds: 10).meansNothingListens)
        #expect(!HTTPError.connectionClosed.meansNothingListens)
    }

    @Test(
        "an answer that is not a grant fails valid with what a grant must be, and leaves the rest not meaningful",
        arguments: [
            ("numeric-id", "answered 200 with publisherPurchaseId as a number (1), not a string; answer \"1\""),
            ("status-ok", "answered 200 without a publisherPurchaseId; a grant is 200 with"),
            ("created", "answered 201, not 200; a grant is 200 with"),
        ])
    func notAGrant(flaw: String, summary: String) throws {
        let receiver = try ExampleGameServer(flaw: flaw)
        let outcome = try paylinks(["check-award", receiver.url, "--json"], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        let lines = try Self.lines(outcome.stdout)
        #expect(lines.first?["case"] as? String == "valid")
        #expect(lines.first?["verdict"] as? String == "fail")
        #expect((lines.first?["summary"] as? String)?.contains(summary) == true, "\(lines.first ?? [:])")
        #expect(!outcome.stdout.contains("re-serialized"), "never blamed on the verifier")
        let rest = lines.dropFirst().dropLast()
        #expect(rest.count == AwardAudit.caseNames.count - 1)
        #expect(rest.allSatisfy { $0["verdict"] as? String == "not-meaningful" }, "\(rest)")
        let text = try paylinks(["check-award", receiver.url], environment: Self.studioKeys)
        #expect(text.stdout.hasSuffix(": 20 cases: 0 pass, 1 FAIL, 0 warn, 19 not meaningful\n"), "\(text.stdout)")
    }

    @Test(
        "an endpoint's answer shows in an audit's text and its --json with C0, C1 and bidirectional controls escaped",
        arguments: ["check-award", "check-events"])
    func answerEscaped(command: String) throws {
        let hostile = "{\"publisherErrorMessage\":\"\u{1B}[2J\u{9B}31m\u{85}forged\u{202E}live\u{2066}\"}"
        let endpoint = try EventReceiver { _, _ in
            HTTPServerResponse(status: 400, contentType: "application/json", body: Array(hostile.utf8))
        }
        let text = try paylinks([command, endpoint.url, "--case", "valid"], environment: Self.studioKeys)
        #expect(text.status == ExitCode.expectationsFailed.rawValue)
        #expect(
            text.stdout.contains(
                #"received  400 {"publisherErrorMessage":"\u{1B}[2J\u{9B}31m\u{85}forged\u{202E}live\u{2066}"}"#
                    + "\n"), "\(text.stdout)")
        #expect(!text.stdout.unicodeScalars.contains { ["\u{1B}", "\u{9B}", "\u{85}", "\u{202E}"].contains($0) })
        let json = try paylinks([command, endpoint.url, "--case", "valid", "--json"], environment: Self.studioKeys)
        #expect(
            json.stdout.contains(#"{\"publisherErrorMessage\":\"\u001B[2J\u009B31m\u0085forged\u202Elive\u2066\"}"#),
            "\(json.stdout)")
        #expect(!json.stdout.unicodeScalars.contains { ["\u{1B}", "\u{9B}", "\u{85}", "\u{202E}"].contains($0) })
        #expect(try Self.lines(json.stdout).first?["received"] as? String == "400 " + hostile)
    }

    @Test("a receiver that serves one connection at a time gets a finding that says so")
    func oneConnection() throws {
        let receiver = try ExampleGameServer(flaw: "one-connection")
        let outcome = try paylinks(["check-award", receiver.url, "--case", "race"], environment: Self.studioKeys)
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        #expect(
            outcome.stdout.hasPrefix("FAIL  race  the second connection got no answer while the first was kept open"))
        #expect(outcome.stdout.contains("serves one connection at a time"))
        #expect(outcome.stdout.hasSuffix(": 1 case: 0 pass, 1 FAIL, 0 warn\n"), "\(outcome.stdout)")
    }

    /// The example receiver's keys, set as a studio sets its own: no demo-key note.
    static let studioKeys = [
        "PAYLINKS_MAIN_KEY": "paylinks-demo-main-key", "PAYLINKS_PUBLISHER_TOKEN": "paylinks-demo-publisher-token",
    ]

    @Test("the demo-key note is said once in a run of many scenarios on many processes, and never once a key is set")
    func demoNoteOnce() throws {
        let receiver = try ExampleGameServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("note-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a", "b", "c"] {
            try Data(
                #"{"configuration": {"awardUrl": "\#(receiver.url)"}, "steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#
                    .utf8
            ).write(to: directory.appendingPathComponent("\(name).json"))
        }
        for jobs in ["1", "2"] {
            let outcome = try paylinks(["run", directory.path, "--jobs", jobs])
            #expect(outcome.stderr.components(separatedBy: "note: award callbacks use the demo").count == 2, "\(jobs)")
        }
        for variables in [["PAYLINKS_MAIN_KEY": "paylinks-demo-main-key"], Self.studioKeys] {
            let outcome = try paylinks(["run", directory.path], environment: variables)
            #expect(!outcome.stderr.contains("note:"), "\(variables): \(outcome.stderr)")
        }
    }
}
