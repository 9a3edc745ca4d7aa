import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `GET /control/v1/export`, `serve --import` and `POST /control/v1/reset`, on the built
/// binary: a state saved and started from again, and forgotten.
@Suite("The sandbox's state, saved and restored", .serialized)
struct SandboxStateTests {
    /// The helpers of the tests of `--data`, which these share.
    typealias Memory = SandboxDataTests

    /// A file of `text` for one test, removed afterwards.
    final class ImportFile {
        let path: String

        init(_ name: String, _ bytes: [UInt8]) {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "paylinks-import-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
                ).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The export of the sandbox on `port`: its answer whole.
    static func export(_ port: Int) throws -> HTTPResponse {
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(port)/control/v1/export"), connectTimeout: 5, responseTimeout: 10)
        defer { client.close() }
        return try client.sendChecked(method: .get, headers: [], body: [])
    }

    @Test("a state made by requests, exported, imported into a new sandbox and exported again, is the same bytes")
    func roundTrip() throws {
        let game = try ExampleGameServer()
        // From now: the game's server takes signatures of its own time only.
        let first = try SandboxProcess(["--clock", "virtual", "--award-url", "http://127.0.0.1:\(game.port)/award"])
        let created = try Memory.create(first.port)
        let paid = try Memory.create(first.port)
        _ = try Memory.call(first.port, .post, "/control/v1/sessions/\(paid)/complete", #"{"choice":"pay"}"#)
        let declined = try Memory.create(first.port)
        _ = try Memory.call(first.port, .post, "/control/v1/sessions/\(declined)/complete", #"{"choice":"decline"}"#)
        let pending = try Memory.create(first.port)
        _ = try Memory.call(first.port, .post, "/control/v1/sessions/\(pending)/complete", #"{"choice":"pending"}"#)
        #expect(try SandboxPromisesTests.stateOnceDecided(first.port, paid) == "charge_succeed")
        #expect(try Memory.deliveries(first.port, count: 1).count == 1)
        #expect(try Memory.call(first.port, .post, "/control/v1/clock", #"{"advance":"PT5M"}"#).status == 200)
        let exported = try Self.export(first.port)
        #expect(exported.status == 200)
        #expect(exported.header("content-type") == "application/x-ndjson")
        #expect(exported.header("content-disposition") == #"attachment; filename="paylinks-sandbox.jsonl""#)
        let lines = String(decoding: exported.body, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == #"{"format":"paylinks-sandbox","version":1,"seed":"1","sessionsMade":4}"#)
        #expect(lines.count(where: { $0.hasPrefix(#"{"session":"#) }) == 4)
        #expect(lines.count(where: { $0.hasPrefix(#"{"delivery":"#) }) == 1)
        #expect(lines.dropFirst().first?.hasPrefix(#"{"clock":{"now":"#) == true, "the clock before the sessions")
        #expect(first.stop().status == 0)

        let file = ImportFile("round-trip", exported.body)
        let second = try SandboxProcess(["--import", file.path, "--clock", "virtual"])
        #expect(second.startLine.contains("imported \(file.path): 4 sessions and 1 delivery\n"), "\(second.startLine)")
        let again = try Self.export(second.port)
        #expect(String(decoding: again.body, as: UTF8.self) == String(decoding: exported.body, as: UTF8.self))
        #expect(try Memory.state(second.port, created) == "created")
        #expect(try Memory.state(second.port, declined) == "payment_failed")
        #expect(try Memory.state(second.port, pending) == "payment_pending")
        // The next session takes the id a fifth would have taken in the first sandbox.
        #expect(try Memory.create(second.port) != created)
        #expect(second.stop().status == 0)
    }

    @Test(
        "an export from a clock days behind the wall keeps its unpaid sessions when imported: their age is the file's clock's"
    )
    func importOldClock() throws {
        let first = try SandboxProcess(["--clock", "virtual", "--now", "2026-01-01T00:00:00Z"])
        let unpaid = try Memory.create(first.port)
        let other = try Memory.create(first.port)
        #expect(try Memory.call(first.port, .post, "/control/v1/clock", #"{"advance":"PT30M"}"#).status == 200)
        let exported = try Self.export(first.port)
        #expect(first.stop().status == 0)

        let file = ImportFile("old-clock", exported.body)
        let second = try SandboxProcess(["--import", file.path, "--clock", "virtual"])
        #expect(try Memory.state(second.port, unpaid) == "created")
        #expect(try Memory.state(second.port, other) == "created")
        #expect(try Self.export(second.port).body == exported.body)
        // Half an hour later it still takes a payment; past its hour it expires, as it would have.
        #expect(try Memory.call(second.port, .post, "/control/v1/clock", #"{"advance":"PT31M"}"#).status == 200)
        #expect(try Memory.state(second.port, unpaid) == "payment_canceled")
        #expect(second.stop().status == 0)
    }

    @Test("a journal's virtual clock left aside by the wall clock, and --now left aside by a journal's clock, are said")
    func clockLeftAside() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-aside-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SandboxProcess([
            "--data", directory.path, "--clock", "virtual", "--now", "2026-01-01T00:00:00Z",
        ])
        #expect(try Memory.call(first.port, .post, "/control/v1/clock", #"{"advance":"PT1H"}"#).status == 200)
        #expect(first.stop().status == 0)
        let wall = try SandboxProcess(["--data", directory.path])
        #expect(
            (wall.startLine + wall.stop().stderr).contains(
                "warning: the journal of '\(directory.path)' holds a virtual clock at 2026-01-01T01:00:00.000Z, which the "
                    + "wall clock leaves aside; add --clock virtual to go on from it\n"))
        let virtual = try SandboxProcess(["--data", directory.path, "--clock", "virtual", "--now", "2030-01-01"])
        let log = virtual.startLine + virtual.stop().stderr
        #expect(
            log.contains(
                "warning: --now (or SOURCE_DATE_EPOCH) is left aside: the clock goes on from 2026-01-01T01:00:00.000Z, "
                    + "where the journal's clock stood\n"), "\(log)")
    }

    @Test("SOURCE_DATE_EPOCH is where a virtual clock starts, as --now is")
    func sourceDateEpoch() throws {
        let outcome = try BinaryTests.run(
            [
                "serve", "--port", "0", "--clock", "virtual", "--", "sh", "-c",
                #"curl -s "$PAYLINKS_SANDBOX_URL/control/v1/clock""#,
            ],
            environment: ProcessInfo.processInfo.environment.merging(["SOURCE_DATE_EPOCH": "1718182312"]) { $1 })
        #expect(outcome.stdout == #"{"mode":"virtual","now":"2024-06-12T08:51:52.000Z"}"#, "\(outcome.stderr)")
    }

    @Test("an import in which two sessions share an id, or a session changes its ids, is refused with its line")
    func sharedIds() throws {
        let sandbox = try SandboxProcess()
        let first = try Memory.create(sandbox.port)
        let second = try Memory.create(sandbox.port)
        let lines = String(decoding: try Self.export(sandbox.port).body, as: UTF8.self).split(separator: "\n")
        #expect(sandbox.stop().status == 0)
        #expect(lines.count == 3, "\(lines)")
        // The second session under the first's purchase id, then the first again with the second's.
        let shared = [lines[0], lines[1], Substring(lines[2].replacing(second, with: first))]
        let changed = [lines[0], lines[1], Substring(lines[1].replacing(first, with: second))]
        for (name, records, message) in [
            ("shared", shared, ":3: purchaseId '\(first)' is session 0's already; each session has ids of its own"),
            ("changed", changed, ":3: session 0 was named with other ids on an earlier line"),
        ] {
            let file = ImportFile(name, Array((records.joined(separator: "\n") + "\n").utf8))
            let outcome = try BinaryTests.run(["serve", "--port", "0", "--import", file.path])
            #expect(outcome.status == 65, "\(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("error: \(file.path)\(message)"), "\(outcome.stderr)")
        }
    }

    @Test("export works without --data, and holds the first line alone on a fresh sandbox on the wall clock")
    func exportFresh() throws {
        let sandbox = try SandboxProcess()
        let exported = try Self.export(sandbox.port)
        #expect(
            String(decoding: exported.body, as: UTF8.self)
                == #"{"format":"paylinks-sandbox","version":1,"seed":"1","sessionsMade":0}"# + "\n")
        #expect(sandbox.stop().status == 0)
    }

    static let header = #"{"format":"paylinks-sandbox","version":1,"seed":"1"}"# + "\n"
    static let clock = #"{"clock":{"now":1000}}"# + "\n"

    @Test(
        "a file that does not read whole is refused with its line and exit 65, before anything listens",
        arguments: [
            ("syntax", header + clock + "{not json\n", ":3:2: "),
            (
                "unknown", header + #"{"order":{}}"# + "\n",
                #":2: not a {"session": ...}, {"delivery": ...}, {"clock": ...}, {"pricePoint": ...} or {"blockedPlayers""#
            ),
            ("format", #"{"format":"other","version":1,"seed":"1"}"# + "\n", #":1: not a paylinks sandbox export"#),
            ("torn", header + clock + #"{"clock":{"now":1"#, ":3: the last line ends without a line feed"),
            ("empty", "", ":1: the file is empty"),
        ])
    func badImport(kind: String, text: String, message: String) throws {
        let file = ImportFile(kind, Array(text.utf8))
        let outcome = try BinaryTests.run(["serve", "--port", "0", "--import", file.path])
        #expect(outcome.status == 65, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("error: \(file.path)\(message)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("paylinks sandbox at"))
    }

    @Test("a virtual clock's time imported on the wall clock is left aside, and the log says so")
    func clockOnTheWall() throws {
        let file = ImportFile("wall", Array((Self.header + Self.clock).utf8))
        let sandbox = try SandboxProcess(["--import", file.path])
        #expect(
            sandbox.startLine.contains(
                "warning: \(file.path) holds a virtual clock at 1970-01-01T00:00:01.000Z, which the wall clock leaves "
                    + "aside; add --clock virtual to go on from it\n"), "\(sandbox.startLine)")
        #expect(sandbox.stop().status == 0)
    }

    @Test("a missing file is exit 66, another --seed 64, and a --data journal with records 64, in one line each")
    func refusedImports() throws {
        let missing = try BinaryTests.run(["serve", "--port", "0", "--import", "/nonexistent/export.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "error: --import '/nonexistent/export.jsonl' cannot be read: it does not exist\n")
        let file = ImportFile("seed", Array((Self.header + Self.clock).utf8))
        let seed = try BinaryTests.run(["serve", "--port", "0", "--seed", "2", "--import", file.path])
        #expect(seed.status == 64)
        #expect(
            seed.stderr.hasPrefix("error: --import '\(file.path)' holds sessions whose ids come from --seed 1, not 2"))
        let data = SandboxDataTests.DataDirectory("import-over")
        let sandbox = try SandboxProcess(["--data", data.path])
        _ = try Memory.create(sandbox.port)
        #expect(sandbox.stop().status == 0)
        let journal = FileManager.default.contents(atPath: data.journal)
        let over = try BinaryTests.run(["serve", "--port", "0", "--data", data.path, "--import", file.path])
        #expect(over.status == 64)
        #expect(over.stderr.split(separator: "\n").count == 1)
        #expect(over.stderr.contains("holds a journal of 1 records, and --import starts anew"), "\(over.stderr)")
        #expect(FileManager.default.contents(atPath: data.journal) == journal)
        // A journal of no session still holds state: the blocked players, a price point, a clock.
        let state = SandboxDataTests.DataDirectory("import-over-state")
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        let held = Data(
            """
            {"format":"paylinks-sandbox","version":1,"seed":"5","sessionsMade":0}
            {"blockedPlayers":{"ids":["keepme"]}}
            {"pricePoint":{"priceInUsdCents":4242,"lastUpdate":1764583200000,"fromCatalog":false,"priceOverrides":[]}}

            """.utf8)
        try held.write(to: URL(fileURLWithPath: state.journal))
        let wiped = try BinaryTests.run(["serve", "--port", "0", "--data", state.path, "--import", file.path])
        #expect(wiped.status == 64)
        #expect(wiped.stderr.contains("holds a journal of 2 records, and --import starts anew"), "\(wiped.stderr)")
        #expect(FileManager.default.contents(atPath: state.journal) == held)
    }

    @Test("an import into a new --data directory is on the disk before the sandbox answers: a restart finds it")
    func importIntoData() throws {
        let first = try SandboxProcess()
        let purchaseId = try Memory.create(first.port)
        let exported = try Self.export(first.port).body
        #expect(first.stop().status == 0)
        let file = ImportFile("data", exported)
        let data = SandboxDataTests.DataDirectory("import")
        let second = try SandboxProcess(["--data", data.path, "--import", file.path])
        _ = second.stop(with: SIGKILL)
        let third = try SandboxProcess(["--data", data.path])
        #expect(third.startLine.contains("1 session and 0 deliveries kept"), "\(third.startLine)")
        #expect(try Memory.state(third.port, purchaseId) == "created")
        #expect(
            String(decoding: try Self.export(third.port).body, as: UTF8.self)
                == String(decoding: exported, as: UTF8.self))
        #expect(third.stop().status == 0)
    }

    @Test("a reset forgets every session, the next one takes the first id again, and a restart finds nothing")
    func reset() throws {
        let data = SandboxDataTests.DataDirectory("reset")
        let sandbox = try SandboxProcess(["--data", data.path])
        let first = try Memory.create(sandbox.port)
        _ = try Memory.create(sandbox.port)
        let refused = try Self.resetFromAPage(sandbox.port)
        #expect(refused == 403)
        #expect(try Memory.state(sandbox.port, first) == "created")
        let reset = try Memory.call(sandbox.port, .post, "/control/v1/reset", "{}")
        #expect(reset.status == 200)
        #expect(reset.json["reset"] as? Bool == true)
        #expect((reset.json["forgotten"] as? [String: Any])?["sessions"] as? Int == 2)
        #expect(try Memory.call(sandbox.port, .get, "/control/v1/sessions/\(first)").status == 404)
        #expect(try data.lines() == [#"{"format":"paylinks-sandbox","version":1,"seed":"1","sessionsMade":0}"#])
        _ = sandbox.stop(with: SIGKILL)
        let again = try SandboxProcess(["--data", data.path])
        #expect(again.startLine.contains("0 sessions and 0 deliveries kept"), "\(again.startLine)")
        #expect(try Memory.create(again.port) == first)
        #expect(again.stop().status == 0)
    }

    @Test("a reset leaves a virtual clock where it stood, and a restart on the same --data finds it there")
    func resetKeepsTheClock() throws {
        let data = SandboxDataTests.DataDirectory("reset-clock")
        let options = ["--data", data.path, "--clock", "virtual", "--now", "2026-12-01T10:00:00Z"]
        let sandbox = try SandboxProcess(options)
        _ = try Memory.create(sandbox.port)
        #expect(try Memory.call(sandbox.port, .post, "/control/v1/clock", #"{"advance":"PT1H"}"#).status == 200)
        #expect(try Memory.call(sandbox.port, .post, "/control/v1/reset").status == 200)
        #expect(
            try Memory.call(sandbox.port, .get, "/control/v1/clock").json["now"] as? String
                == "2026-12-01T11:00:00.000Z")
        #expect(try data.lines().last == #"{"clock":{"now":1796122800000}}"#)
        _ = sandbox.stop(with: SIGKILL)
        let again = try SandboxProcess(options)
        #expect(
            try Memory.call(again.port, .get, "/control/v1/clock").json["now"] as? String == "2026-12-01T11:00:00.000Z")
        #expect(again.stop().status == 0)
    }

    @Test("after a restart on a journal's virtual clock, the tiers no request changed were last updated on that clock")
    func tiersOnTheJournalsClock() throws {
        let data = SandboxDataTests.DataDirectory("tiers-clock")
        let first = try SandboxProcess(["--data", data.path, "--clock", "virtual", "--now", "2026-12-01T10:00:00Z"])
        // A point moved at 10:00 keeps its own time; the clock then stands at 11:00.
        #expect(
            try Memory.call(first.port, .put, "/v1/price-points/499", #"{"updatedPriceInUsdCents":599}"#).status == 200)
        #expect(try Memory.call(first.port, .post, "/control/v1/clock", #"{"advance":"PT1H"}"#).status == 200)
        #expect(first.stop().status == 0)
        let again = try SandboxProcess(["--data", data.path, "--clock", "virtual"])
        let listed = try Memory.call(again.port, .get, "/v1/price-points")
        #expect(listed.status == 200)
        let points = try #require(listed.json["pricePoints"] as? [[String: Any]])
        let updates = points.map { "\($0["priceInUsdCents"] ?? "-") \($0["lastUpdate"] ?? "-")" }
        #expect(
            updates
                == [99, 199, 299, 599, 999, 1999, 4999, 9999].map {
                    "\($0) 2026-12-01T\($0 == 599 ? "10" : "11"):00:00.000Z"
                })
        #expect(again.stop().status == 0)
    }

    /// A reset a page of another site sends, with its `Origin`: the status.
    static func resetFromAPage(_ port: Int) throws -> Int {
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(port)/control/v1/reset"), connectTimeout: 5, responseTimeout: 10)
        defer { client.close() }
        return try client.sendChecked(
            method: .post,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Origin", "http://evil.example")],
            body: Array("{}".utf8)
        ).status
    }
}
