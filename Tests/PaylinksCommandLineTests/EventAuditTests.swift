import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksDelivery
@testable import PaylinksHTTP

/// `check-events` against the example game server, correct and with each of its flaws.
@Suite(
    "The events handler's audit",
    .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
struct EventAuditTests {
    /// The example's three URLs: its events handler, its award endpoint and its ledger.
    static func urls(_ receiver: ExampleGameServer) -> [String] {
        let base = "http://127.0.0.1:\(receiver.port)"
        return ["\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "\(base)/ledger"]
    }

    /// The example's keys, set as a studio sets its own: no demo-key note.
    static let studioKeys = [
        "PAYLINKS_MAIN_KEY": "paylinks-demo-main-key", "PAYLINKS_PUBLISHER_TOKEN": "paylinks-demo-publisher-token",
    ]

    func audit(_ arguments: [String]) throws -> BinaryTests.Outcome {
        try BinaryTests.run(["check-events"] + arguments, environment: Self.studioKeys)
    }

    /// The findings of a `--json` audit, without its summary line.
    static func findings(_ outcome: BinaryTests.Outcome) throws -> [(
        name: String, verdict: String, line: [String: Any]
    )] {
        try AwardTests.lines(outcome.stdout).dropLast().map {
            (try #require($0["case"] as? String), try #require($0["verdict"] as? String), $0)
        }
    }

    @Test("the example game server passes every case, V2 and V1 (where a refund cannot be partial)")
    func passes() throws {
        let receiver = try ExampleGameServer()
        let v2 = try audit(Self.urls(receiver) + ["--json"])
        #expect(v2.status == 0, "\(v2.stdout)")
        #expect(v2.stderr.isEmpty)
        let findings = try Self.findings(v2)
        #expect(findings.map(\.name) == EventAudit.caseNames)
        #expect(findings.filter { $0.verdict != "pass" }.map(\.name) == [], "\(v2.stdout)")
        let summary = try #require(try AwardTests.lines(v2.stdout).last?["summary"] as? [String: Any])
        #expect(summary["pass"] as? Int == 27)
        #expect(summary["notChecked"] as? Int == 0)

        let v1 = try audit(Self.urls(receiver) + ["--events-version", "v1"])
        #expect(v1.status == 0, "\(v1.stdout)")
        #expect(
            v1.stdout.contains(
                "----  partial-refund      not checked: a V1 refund carries no amount, so it cannot be partial\n"))
        #expect(v1.stdout.hasSuffix(": 27 cases: 26 pass, 0 FAIL, 0 warn, 1 not checked\n"), "\(v1.stdout)")
    }

    @Test(
        "each flaw of the example is caught by name",
        arguments: [
            ("no-revoke", "fail", ["refund", "duplicate", "duplicate-race", "refund-first", "dispute-lost"]),
            ("revoke-twice", "fail", ["duplicate", "duplicate-race"]),
            ("revoke-ungranted", "fail", ["refund-ungranted"]),
            ("revoke-on-open", "fail", ["dispute-won"]),
            ("in-order", "fail", ["refund-first"]),
            ("strict-fields", "fail", ["unknown-fields"]),
            ("reserialize", "fail", ["names-unicode", "numbers"]),
            ("any-signature", "fail", ["signature-digit", "body-changed", "other-key", "body-only"]),
            ("refuse-unknown", "warn", ["refund-ungranted", "business-failure"]),
            ("strip-spaces", "fail", ["names-spaces"]),
            ("grant-on-partial", "fail", ["partial-refund"]),
            (
                "reserialize-500", "fail",
                SignatureForgery.allCases.map(\.rawValue) + ["names-slash-quotes", "names-unicode", "numbers"]
            ),
        ])
    func catches(flaw: String, verdict: String, cases: [String]) throws {
        let receiver = try ExampleGameServer(flaw: flaw)
        // The example acts before it answers; a second is enough for a ledger that never changes.
        let outcome = try audit(Self.urls(receiver) + ["--json", "--ledger-wait", "1"])
        #expect(outcome.status == (verdict == "fail" ? ExitCode.expectationsFailed.rawValue : 0))
        let findings = try Self.findings(outcome)
        #expect(findings.filter { $0.verdict != "pass" }.map(\.name) == cases, "\(outcome.stdout)")
        for finding in findings where finding.verdict != "pass" {
            #expect(finding.verdict == verdict)
            #expect((finding.line["why"] as? String)?.isEmpty == false)
            #expect(
                finding.line["again"] as? String
                    == "paylinks check-events \(Self.urls(receiver).joined(separator: " ")) --ledger-wait 1 --case "
                    + finding.name)
        }
    }

    @Test(
        "a ledger that goes off its contract mid-audit ends the run with what it found, the cases after it not checked")
    func ledgerFailsMidAudit() throws {
        let receiver = try ExampleGameServer()
        // A ledger in its contract for its first two reads (the start's and a case's), then a 404.
        let ledger = try EventReceiver { count, _ in
            count <= 2
                ? HTTPServerResponse(status: 200, body: Array(#"{"balances": {}}"#.utf8))
                : HTTPServerResponse(status: 404, body: Array("{}".utf8))
        }
        let base = "http://127.0.0.1:\(receiver.port)"
        let outcome = try audit([
            "\(base)/events", "--award-url", "\(base)/award", "--ledger-url", ledger.url, "--ledger-wait", "0",
        ])
        #expect(outcome.status == ExitCode.unavailable.rawValue, "no case failed: \(outcome.stdout)")
        #expect(outcome.stdout.contains("pass  other-key"), "the findings before it stand: \(outcome.stdout)")
        #expect(outcome.stdout.contains("not checked: the audit stopped during "), "\(outcome.stdout)")
        let errors = outcome.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(outcome.stderr)")
        #expect(errors.first?.hasPrefix("error: the audit stopped during ") == true, "\(outcome.stderr)")
        #expect(errors.first?.contains("answered 404 Not Found") == true, "\(outcome.stderr)")
    }

    @Test("the README says every case the example's refuse-unknown warns on")
    func readmeRefuseUnknown() throws {
        let receiver = try ExampleGameServer(flaw: "refuse-unknown")
        let outcome = try audit(Self.urls(receiver) + ["--json", "--ledger-wait", "1"])
        let warned = try Self.findings(outcome).filter { $0.verdict == "warn" }.map { "`\($0.name)`" }
        #expect(!warned.isEmpty)
        let said =
            warned.count == 1 ? warned[0] : warned.dropLast().joined(separator: ", ") + " and " + (warned.last ?? "")
        let readme = try String(
            contentsOf: DocumentedCommands.root.appendingPathComponent("README.md"), encoding: .utf8)
        let flat = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("`refuse-unknown` warns on \(said):"), "\(said)")
    }

    @Test("the findings say 'an event', never 'a event'")
    func article() throws {
        let receiver = try ExampleGameServer(flaw: "any-signature")
        let outcome = try audit([Self.urls(receiver)[0], "--json"])
        let findings = try Self.findings(outcome)
        let sent = Dictionary(findings.map { ($0.name, $0.line["sent"] as? String ?? "") }) { first, _ in first }
        #expect(sent["body-changed"] == "an event whose body was changed after it was signed")
        #expect(sent["other-key"] == "an event signed with another key")
        #expect(!outcome.stdout.contains("a event"), "\(outcome.stdout)")
    }

    @Test("valid is the plainest event: names of ASCII letters without spaces or slashes")
    func plainValid() throws {
        let handler = try EventReceiver()
        let outcome = try audit([handler.url, "--case", "valid"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let body = try #require(handler.received.first?.body)
        #expect(
            body.allSatisfy { (0x21..<0x7F).contains($0) && $0 != UInt8(ascii: "/") },
            "\(String(decoding: body, as: UTF8.self))")
    }

    @Test("check-events pointed at an award endpoint says so in valid, and the rest is not meaningful")
    func awardEndpointGiven() throws {
        // An award endpoint that grants whatever is signed, as the studio's did.
        let grants = try EventReceiver { _, _ in
            HTTPServerResponse(
                status: 200, contentType: "application/json",
                body: Array(#"{"publisherPurchaseId":"grant_1","purchaseTime":1718182312000}"#.utf8))
        }
        let outcome = try audit([grants.url, "--json"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stdout)")
        let findings = try Self.findings(outcome)
        #expect(findings.first?.name == "valid")
        #expect(findings.first?.verdict == "fail")
        let summary = findings.first?.line["summary"] as? String ?? ""
        #expect(summary.hasPrefix("this URL answers like an award endpoint"), "\(summary)")
        #expect((findings.first?.line["why"] as? String)?.contains("--award-url") == true)
        #expect(!findings.contains { $0.verdict == "pass" }, "\(outcome.stdout)")
        // The example's award endpoint refuses an event as no award: the same.
        let example = try ExampleGameServer()
        let text = try audit(["http://127.0.0.1:\(example.port)/award", "--case", "valid"])
        #expect(text.status == ExitCode.expectationsFailed.rawValue)
        #expect(text.stdout.hasPrefix("FAIL  valid  this URL answers like an award endpoint"), "\(text.stdout)")
    }

    @Test(
        "a game server that stops answering mid-audit leaves the rest 'not checked', says so in one line, and is not green"
    )
    func serverStops() throws {
        let receiver = try ExampleGameServer(flaw: "die-after-grant")
        let outcome = try audit(Self.urls(receiver) + ["--json"])
        #expect(outcome.status == ExitCode.unavailable.rawValue, "\(outcome.stdout)")
        let findings = try Self.findings(outcome)
        #expect(findings.map(\.name) == EventAudit.caseNames)
        let first = try #require(findings.firstIndex { $0.name == "refund" })
        #expect(findings[..<first].allSatisfy { $0.verdict == "pass" }, "\(outcome.stdout)")
        for finding in findings[first...] {
            #expect(finding.verdict == "not-checked", "\(finding.line)")
            #expect(finding.line["summary"] as? String == "not checked: the ledger stopped answering during refund")
        }
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix(
                "error: the ledger http://127.0.0.1:\(receiver.port)/ledger stopped answering during refund "),
            "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("; 9 cases were not checked: restart it and run the audit again\n"))
        // A handler that crashes on the first event it gets: valid fails saying so, the rest are not checked.
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
        let events = "http://127.0.0.1:\(crashing.port)/events"
        let crashed = try audit([events])
        #expect(crashed.status == ExitCode.expectationsFailed.rawValue, "\(crashed.stdout)")
        #expect(crashed.stdout.hasPrefix("FAIL  valid  "))
        #expect(crashed.stdout.contains("; and nothing answers since: did the event bring the handler down?"))
        #expect(crashed.stdout.hasSuffix(": 27 cases: 0 pass, 1 FAIL, 0 warn, 26 not checked\n"), "\(crashed.stdout)")
        #expect(
            crashed.stderr.hasPrefix("error: the events handler \(events) stopped answering during valid"),
            "\(crashed.stderr)")
    }

    @Test(
        "a handler that crashes on one case's event fails that case, saying so, and the cases after it are not checked 'during' it"
    )
    func crashOnCase() throws {
        // A handler that accepts every event and exits on one with a field it does not know.
        let crashing = try ExampleGameServer(
            script: """
                import http.server, os
                class Handler(http.server.BaseHTTPRequestHandler):
                    def do_POST(self):
                        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                        if b"futureField" in body:
                            os._exit(1)
                        self.send_response(200)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                    def log_message(self, *args):
                        pass
                server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
                print(server.server_address[1], flush=True)
                server.serve_forever()
                """)
        let events = "http://127.0.0.1:\(crashing.port)/events"
        let outcome = try audit([events, "--json"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stdout)")
        let findings = try Self.findings(outcome)
        let crashed = try #require(findings.firstIndex { $0.name == "unknown-fields" })
        #expect(findings[crashed].verdict == "fail", "\(findings[crashed].line)")
        let summary = findings[crashed].line["summary"] as? String ?? ""
        #expect(
            summary.hasSuffix("the events handler went down on this request: did it bring it down?"), "\(summary)")
        let after = findings[(crashed + 1)...]
        #expect(after.count == 15)
        for finding in after {
            #expect(
                finding.line["summary"] as? String
                    == "not checked: the events handler stopped answering during unknown-fields", "\(finding.line)")
        }
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix("error: the events handler \(events) stopped answering during unknown-fields"),
            "\(outcome.stderr)")
        #expect(outcome.stderr.hasSuffix("; 15 cases were not checked: restart it and run the audit again\n"))
    }

    @Test(
        "a handler that answers at once and revokes from a queue 300 ms later passes, each finding saying how long the ledger took"
    )
    func asyncLedger() throws {
        let receiver = try ExampleGameServer(flaw: "async-ledger")
        let outcome = try audit(Self.urls(receiver) + ["--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        let findings = try Self.findings(outcome)
        #expect(findings.filter { $0.verdict != "pass" }.map(\.name) == [], "\(outcome.stdout)")
        for name in ["refund", "duplicate", "duplicate-race", "refund-first", "dispute-lost"] {
            let summary = try #require(findings.first { $0.name == name }?.line["summary"] as? String)
            #expect(
                summary.hasPrefix("taken back once: 200 gem_01 → 100 gem_01 (the ledger changed ")
                    || summary.hasPrefix("taken back once: 100 gem_01 → nothing (the ledger changed "), "\(summary)")
            #expect(summary.hasSuffix(" ms after the answer)"), "\(summary)")
        }
    }

    @Test("a handler whose ledger never changes fails after the wait, which the finding says")
    func ledgerNeverChanges() throws {
        let receiver = try ExampleGameServer(flaw: "no-revoke")
        let outcome = try audit(Self.urls(receiver) + ["--case", "refund"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        #expect(
            outcome.stdout.hasPrefix(
                "FAIL  refund  nothing taken back: 100 gem_01 → 100 gem_01 (no change in the ledger within 5 s of the "
                    + "answer)\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("needs a longer --ledger-wait"))
        let once = try audit(Self.urls(receiver) + ["--case", "refund", "--ledger-wait", "0"])
        #expect(once.stdout.hasPrefix("FAIL  refund  nothing taken back: 100 gem_01 → 100 gem_01\n"), "\(once.stdout)")
        #expect(once.stdout.contains("--ledger-wait 0"))
        let tooLong = try audit(Self.urls(receiver) + ["--ledger-wait", "61"])
        #expect(tooLong.status == ExitCode.usage.rawValue)
        #expect(tooLong.stderr.hasPrefix("error: --ledger-wait takes whole seconds, 0 to 60, not '61'"))
    }

    @Test("--ledger-wait takes whole seconds from 0 to 60, as its help and its refusal of 1.5 say")
    func ledgerWaitWholeSeconds() throws {
        let fraction = try audit(["http://127.0.0.1:1/events", "--ledger-wait", "1.5"])
        #expect(fraction.status == ExitCode.usage.rawValue)
        #expect(fraction.stdout.isEmpty)
        #expect(
            fraction.stderr.hasPrefix("error: --ledger-wait takes whole seconds, 0 to 60, not '1.5'"),
            "\(fraction.stderr)")
        let help = try audit(["--help"])
        let line = help.stdout.split(separator: "\n").first { $0.hasPrefix("  --ledger-wait ") } ?? ""
        #expect(line.contains("whole seconds, 0 to 60"), "\(line)")
    }

    @Test("what each money flaw did is in its finding: the balances before and after")
    func moneyFindings() throws {
        let twiceServer = try ExampleGameServer(flaw: "revoke-twice")
        let twice = try audit(Self.urls(twiceServer) + ["--case", "duplicate"])
        #expect(twice.stdout.hasPrefix("FAIL  duplicate  taken back twice: 200 gem_01 → nothing\n"), "\(twice.stdout)")
        #expect(twice.stdout.contains("remember each eventId"))
        let openServer = try ExampleGameServer(flaw: "revoke-on-open")
        let open = try audit(Self.urls(openServer) + ["--case", "dispute-won"])
        #expect(open.stdout.hasPrefix("FAIL  dispute-won  the items were not given back: 100 gem_01 → nothing\n"))
        let blindServer = try ExampleGameServer(flaw: "revoke-ungranted")
        let blind = try audit(Self.urls(blindServer) + ["--case", "refund-ungranted"])
        #expect(
            blind.stdout.hasPrefix(
                "FAIL  refund-ungranted  took items the order never granted: 100 gem_01 → nothing; and a player who held nothing went to -100 gem_01\n"
            )
        )
        let partialServer = try ExampleGameServer()
        let partial = try audit(Self.urls(partialServer) + ["--case", "partial-refund", "--ledger-wait", "1"])
        #expect(
            partial.stdout.hasPrefix(
                "pass  partial-refund  a refund of 2.49 of 4.99 USD: the handler revoked nothing (no change in the "
                    + "ledger within 1 s of the answer)\n"),
            "\(partial.stdout)")
    }

    @Test("without the award endpoint and the ledger, the money cases say 'not checked' in one line each")
    func notChecked() throws {
        let receiver = try ExampleGameServer()
        let events = Self.urls(receiver)[0]
        let outcome = try audit([events])
        #expect(outcome.status == 0)
        let money = EventAuditCase.allCases.filter(\.followsMoney).map(\.name)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for name in money {
            let line = try #require(lines.first { $0.contains("  \(name) ") })
            #expect(line.hasPrefix("----  "))
            #expect(
                line.hasSuffix(
                    "not checked: it needs --award-url and --ledger-url, to grant an order and then read what its "
                        + "player holds"))
        }
        #expect(!outcome.stdout.contains("        sent "), "a not-checked case sent nothing")
        #expect(outcome.stdout.hasSuffix(": 27 cases: 19 pass, 0 FAIL, 0 warn, 8 not checked\n"), "\(outcome.stdout)")
        let ledgerOnly = try audit([events, "--ledger-url", Self.urls(receiver)[4]])
        #expect(
            ledgerOnly.stdout.contains(
                "----  refund              not checked: it needs --award-url, to grant the order it then refunds or "
                    + "disputes\n"), "\(ledgerOnly.stdout)")
    }

    @Test(
        "a money case the award endpoint or the ledger kept from running is 'not checked' with why, and the run fails with one line naming what to fix"
    )
    func moneyBlocked() throws {
        let receiver = try ExampleGameServer()
        let base = "http://127.0.0.1:\(receiver.port)"
        // The events handler given as the award endpoint: 200 to the award, but no grant.
        let wrongAward = try audit([
            "\(base)/events", "--award-url", "\(base)/events", "--ledger-url", "\(base)/ledger",
        ])
        #expect(wrongAward.status == ExitCode.expectationsFailed.rawValue, "\(wrongAward.stdout)")
        #expect(
            wrongAward.stdout.contains(
                "----  refund              not checked: the award endpoint did not grant: answered 200 without a "
                    + "publisherPurchaseId"), "\(wrongAward.stdout)")
        #expect(!wrongAward.stdout.contains("n/a "), "\(wrongAward.stdout)")
        #expect(
            wrongAward.stdout.hasSuffix(": 27 cases: 19 pass, 0 FAIL, 0 warn, 8 not checked\n"), "\(wrongAward.stdout)")
        #expect(wrongAward.stderr.split(separator: "\n").count == 1, "\(wrongAward.stderr)")
        #expect(
            wrongAward.stderr.hasPrefix(
                "error: the award endpoint \(base)/events did not grant an order (answered 200 without a "),
            "\(wrongAward.stderr)")
        #expect(
            wrongAward.stderr.hasSuffix(
                "; 8 cases were not checked: point --award-url at the game's award endpoint (check-award audits it)\n"),
            "\(wrongAward.stderr)")
        // An award endpoint that answers its id as a number, with two money cases asked for.
        let numeric = try ExampleGameServer(flaw: "numeric-id")
        let asked = try audit(Self.urls(numeric) + ["--case", "refund", "--case", "dispute-lost"])
        #expect(asked.status == ExitCode.expectationsFailed.rawValue, "\(asked.stdout)")
        #expect(asked.stdout.hasSuffix(": 2 cases: 0 pass, 0 FAIL, 0 warn, 2 not checked\n"), "\(asked.stdout)")
        #expect(asked.stderr.contains("publisherPurchaseId as a number"), "\(asked.stderr)")
        // The ledger of another server, which never saw the grant.
        let other = try ExampleGameServer()
        let ledger = "http://127.0.0.1:\(other.port)/ledger"
        let mixed = try audit(
            Array(Self.urls(receiver).prefix(4)) + [ledger, "--case", "refund", "--ledger-wait", "0"])
        #expect(mixed.status == ExitCode.expectationsFailed.rawValue, "\(mixed.stdout)")
        #expect(
            mixed.stdout.hasPrefix("----  refund  not checked: the ledger does not show what the award granted"),
            "\(mixed.stdout)")
        #expect(
            mixed.stderr.hasPrefix(
                "error: the ledger \(ledger) does not show what the award endpoint \(base)/award granted"),
            "\(mixed.stderr)")
        #expect(mixed.stderr.hasSuffix("point --award-url and --ledger-url at the same game's server\n"))
    }

    @Test("a run whose every case would be 'not checked' is a usage error naming what is missing, and sends nothing")
    func nothingToCheck() throws {
        let handler = try EventReceiver()
        let bare = try audit([handler.url, "--case", "refund"])
        #expect(bare.status == ExitCode.usage.rawValue, "\(bare.stdout)")
        #expect(bare.stdout.isEmpty)
        #expect(
            bare.stderr
                == "error: --case refund needs --award-url and --ledger-url, to grant an order and then read what its "
                + "player holds; give them, or leave the case out (see 'paylinks check-events --help')\n")
        let ledgerOnly = try audit([
            handler.url, "--ledger-url", "http://127.0.0.1:1/ledger", "--case", "dispute-lost", "--case", "refund",
        ])
        #expect(ledgerOnly.status == ExitCode.usage.rawValue)
        #expect(
            ledgerOnly.stderr.hasPrefix(
                "error: --case refund and dispute-lost need --award-url, to grant the order it then refunds or disputes;"
            ), "\(ledgerOnly.stderr)")
        let v1 = try audit([
            handler.url, "--award-url", "http://127.0.0.1:1/award", "--ledger-url", "http://127.0.0.1:1/ledger",
            "--events-version", "v1", "--case", "partial-refund",
        ])
        #expect(v1.status == ExitCode.usage.rawValue)
        #expect(
            v1.stderr.hasPrefix(
                "error: --case partial-refund checks nothing with --events-version v1: a V1 refund carries no amount, "
                    + "so it cannot be partial;"), "\(v1.stderr)")
        #expect(handler.received.isEmpty, "nothing is sent")
    }

    @Test(
        "a handler, award endpoint or ledger that is not there, or a ledger off its contract, is one error line and 69")
    func cannotRun() throws {
        let receiver = try ExampleGameServer()
        let base = "http://127.0.0.1:\(receiver.port)"
        let cases: [([String], String)] = [
            (["http://127.0.0.1:1/events"], "error: nothing answers at http://127.0.0.1:1/events: connection refused"),
            (
                ["\(base)/events", "--award-url", "http://127.0.0.1:1/award", "--ledger-url", "\(base)/ledger"],
                "error: nothing answers at the award endpoint http://127.0.0.1:1/award: connection refused"
            ),
            (
                ["\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "http://127.0.0.1:1/ledger"],
                "error: nothing answers at the ledger http://127.0.0.1:1/ledger: connection refused"
            ),
            (
                ["\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "\(base)/grants"],
                "error: the ledger \(base)/grants answered without a \"balances\" object"
            ),
            (
                ["\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "\(base)/nowhere"],
                "error: the ledger \(base)/nowhere answered 404 Not Found"
            ),
        ]
        for (arguments, message) in cases {
            let outcome = try audit(arguments)
            #expect(outcome.status == ExitCode.unavailable.rawValue, "\(arguments)")
            #expect(outcome.stdout.isEmpty, "no case is reported, none passes")
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(
        "a ledger that answers off its contract is told what the contract expects at its URL, not to start the server",
        arguments: [
            ("nowhere", "answered 404 Not Found"), ("grants", "answered without a \"balances\" object"),
        ])
    func ledgerOffContract(path: String, answered: String) throws {
        let receiver = try ExampleGameServer()
        let base = "http://127.0.0.1:\(receiver.port)"
        let outcome = try audit(["\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "\(base)/\(path)"])
        #expect(outcome.status == ExitCode.unavailable.rawValue)
        #expect(
            outcome.stderr
                == "error: the ledger \(base)/\(path) \(answered); its contract: GET \(base)/\(path)?playerId=ID "
                + "answers 200 {\"balances\": {\"SKU\": n, ...}}, what the player holds now. The game's server answers "
                + "there but not as that ledger: point --ledger-url at the route that does, or make it answer so\n",
            "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("start the game's server"))
    }

    @Test(
        "a ledger balance beyond ±10^15 breaks the ledger's contract: the case not checked, one error line and 69, never a crash",
        arguments: [
            ("-9223372036854775808", true), ("9223372036854775807", true), ("-1000000000000001", true),
            ("1000000000000001", true), ("-1000000000000000", false), ("1000000000000000", false),
        ])
    func extremeBalance(balance: String, refused: Bool) throws {
        let receiver = try ExampleGameServer()
        // The audit reads the ledger for a newcomer, then for partial-refund's player before
        // and after the refund: right twice (the award's 100 gems), then `balance`.
        let ledger = try EventReceiver { count, _ in
            HTTPServerResponse(
                status: 200, contentType: "application/json",
                body: Array(#"{"balances": {"gem_01": \#(count < 3 ? "100" : balance)}}"#.utf8))
        }
        let base = "http://127.0.0.1:\(receiver.port)"
        let outcome = try audit([
            "\(base)/events", "--award-url", "\(base)/award", "--ledger-url", "http://127.0.0.1:\(ledger.port)/ledger",
            "--case", "partial-refund",
        ])
        #expect(ledger.received.count == 3)
        guard refused else {
            // At the bound the balance is the ledger's to answer, and the case judges it.
            #expect(outcome.stdout.contains("  partial-refund  "), "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            return
        }
        #expect(outcome.status == ExitCode.unavailable.rawValue, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix("----  partial-refund  not checked: the audit stopped during partial-refund\n"),
            "\(outcome.stdout)")
        #expect(
            outcome.stderr.hasPrefix(
                "error: the audit stopped during partial-refund: a balance in the ledger's answer is \(balance), "
                    + "beyond ±10^15; "), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test("--case runs one case, after valid; a case that does not exist is a usage error with the closest")
    func oneCase() throws {
        let receiver = try ExampleGameServer(flaw: "revoke-twice")
        let outcome = try audit(Self.urls(receiver) + ["--case", "duplicate-race"])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue)
        #expect(outcome.stdout.hasSuffix(": 1 case: 0 pass, 1 FAIL, 0 warn\n"), "\(outcome.stdout)")
        let typo = try audit(Self.urls(receiver) + ["--case", "dupliate"])
        #expect(typo.status == ExitCode.usage.rawValue)
        #expect(typo.stderr.contains("did you mean 'duplicate'?"), "\(typo.stderr)")
        let awardCase = try audit(Self.urls(receiver) + ["--case", "retry"])
        #expect(awardCase.status == ExitCode.usage.rawValue, "retry is check-award's")
    }

    @Test("--case given several times runs each case named, in the audit's order, once each")
    func severalCases() throws {
        let receiver = try ExampleGameServer(flaw: "revoke-twice")
        let outcome = try audit(
            Self.urls(receiver) + [
                "--case", "duplicate-race", "--case", "refund", "--case", "duplicate", "--case", "refund", "--json",
            ])
        #expect(outcome.status == ExitCode.expectationsFailed.rawValue, "\(outcome.stderr)")
        let findings = try Self.findings(outcome)
        #expect(findings.map(\.name) == ["refund", "duplicate", "duplicate-race"])
        #expect(findings.map(\.verdict) == ["pass", "fail", "fail"])
    }

    @Test(
        "a handler slower than 2 s gets a warn, and a handler that refuses valid events makes the rest not meaningful")
    func hygieneAndBaseline() throws {
        let slowServer = try ExampleGameServer(flaw: "slow-events")
        let slow = try audit(Self.urls(slowServer) + ["--case", "valid"])
        #expect(slow.status == 0)
        #expect(slow.stdout.hasPrefix("warn  valid  accepted (200), but only after 2"), "\(slow.stdout)")
        let keylessServer = try ExampleGameServer()
        let keyless = try BinaryTests.run(
            ["check-events"] + Self.urls(keylessServer) + ["--json"],
            environment: ["PAYLINKS_MAIN_KEY": "not-the-receivers-key"])
        #expect(keyless.status == ExitCode.expectationsFailed.rawValue)
        let findings = try Self.findings(keyless)
        #expect(findings.first?.name == "valid")
        #expect(findings.first?.verdict == "fail")
        #expect(findings.dropFirst().allSatisfy { $0.verdict == "not-meaningful" }, "\(keyless.stdout)")
    }

    @Test("a scenario's refund and dispute story runs against the handler; an event it refuses fails its step")
    func scenarioAgainstTheHandler() throws {
        let receiver = try ExampleGameServer()
        let base = "http://127.0.0.1:\(receiver.port)"
        let story = [
            "run", "Fixtures/scenarios/after-the-purchase.json", "--award-url", "\(base)/award", "--events-url",
            "\(base)/events",
        ]
        let passing = try BinaryTests.run(story, environment: Self.studioKeys)
        #expect(passing.status == 0, "\(passing.stderr)")
        let ledger = try HTTPClient(url: try HTTPURL("\(base)/ledger?playerId=cust_98765")).send(
            method: .get, headers: [], body: [])
        let balances = try #require(try JSONSerialization.jsonObject(with: Data(ledger.body)) as? [String: Any])[
            "balances"]
        // The starter pack's 100 gems were refunded and taken back; the builder's bundle's dispute was won.
        #expect((balances as? [String: Int])?["gem_01"] == 500, "\(balances ?? "")")

        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-wrong-events-key-\(receiver.port)")
        try Data("not-the-events-key".utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let refused = try BinaryTests.run(story + ["--events-key-file", keyFile.path], environment: Self.studioKeys)
        #expect(refused.status == ExitCode.expectationsFailed.rawValue)
        #expect(
            refused.stderr.contains(
                "mismatch: Fixtures/scenarios/after-the-purchase.json: step 4 (refund): order.refunded was refused on "
                    + "every attempt: the server answered 401\n"), "\(refused.stderr)")
    }
}
