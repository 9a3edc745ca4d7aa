import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksKit

/// `serve --data DIR`: what the sandbox answered survives a stop, a crash and `kill -9`.
@Suite("The sandbox's memory", .serialized)
struct SandboxDataTests {
    /// A fresh directory for one test, removed afterwards.
    final class DataDirectory {
        let path: String

        init(_ name: String) {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "paylinks-data-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                ).path
        }

        var journal: String { path + "/sandbox.jsonl" }

        func lines() throws -> [String] {
            try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let token = "paylinks-demo-publisher-token"
    static let body = Array(
        #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Starter Pack","sku":"starter_pack_001","pricePointMetadata":499},"items":[{"name":"Gems","sku":"gem_01","quantity":100}],"customer":{"id":"cust_1"}}"#
            .utf8)

    /// One request to the sandbox on `port`: the status and the body's members.
    static func call(_ port: Int, _ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> (
        status: Int, json: [String: Any]
    ) {
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(port)\(path)"), connectTimeout: 5, responseTimeout: 10)
        defer { client.close() }
        let bytes = body.map { Array($0.utf8) } ?? []
        let response = try client.sendChecked(
            method: method,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", token)],
            body: path == "/checkout/v1/session" ? Self.body : bytes)
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, json)
    }

    static func create(_ port: Int) throws -> String {
        let created = try call(port, .post, "/checkout/v1/session")
        #expect(created.status == 201)
        return try #require(created.json["purchaseId"] as? String)
    }

    static func state(_ port: Int, _ purchaseId: String) throws -> String? {
        let answer = try call(port, .get, "/control/v1/sessions/\(purchaseId)")
        return answer.status == 200 ? answer.json["state"] as? String : nil
    }

    @Test("every answered change survives kill -9 between requests: created, paid, declined, refunded, disputed")
    func killBetweenRequests() throws {
        let data = DataDirectory("between")
        var expected: [String: String] = [:]
        for round in 0..<3 {
            let sandbox = try SandboxProcess(["--data", data.path])
            // What the earlier rounds were answered is all there.
            for (purchaseId, state) in expected {
                #expect(try Self.state(sandbox.port, purchaseId) == state, "round \(round): \(purchaseId)")
            }
            let fresh = try Self.create(sandbox.port)
            expected[fresh] = "created"
            let paid = try Self.create(sandbox.port)
            let payment = try Self.call(
                sandbox.port, .post, "/control/v1/sessions/\(paid)/complete", #"{"choice":"pay"}"#)
            expected[paid] = try #require(payment.json["state"] as? String)
            let declined = try Self.create(sandbox.port)
            _ = try Self.call(
                sandbox.port, .post, "/control/v1/sessions/\(declined)/complete", #"{"choice":"decline"}"#)
            expected[declined] = "payment_failed"
            let refund = try Self.call(
                sandbox.port, .post, "/control/v1/sessions/\(paid)/refund", #"{"outcome":"refunded","amount":100}"#)
            #expect(refund.status == 200)
            expected[paid] = "payment_refunded"
            let disputed = try Self.create(sandbox.port)
            _ = try Self.call(sandbox.port, .post, "/control/v1/sessions/\(disputed)/complete", #"{"choice":"pay"}"#)
            let dispute = try Self.call(
                sandbox.port, .post, "/control/v1/sessions/\(disputed)/dispute", #"{"outcome":"open"}"#)
            expected[disputed] = try #require(dispute.json["state"] as? String)
            #expect(expected[disputed] == "payment_dispute_open")
            _ = sandbox.stop(with: SIGKILL)
        }
        let last = try SandboxProcess(["--data", data.path])
        #expect(
            last.startLine.contains("sandbox data in \(data.path): 12 sessions and 0 deliveries kept\n"),
            "\(last.startLine)")
        for (purchaseId, state) in expected {
            #expect(try Self.state(last.port, purchaseId) == state)
        }
        // Started again, the journal is rewritten while it answers: once stopped, it holds one
        // record of each session and its header, no more.
        #expect(last.stop().status == 0)
        #expect(try data.lines().count == 13)
    }

    @Test("kill -9 while requests are in flight loses none that was answered")
    func killMidRequest() throws {
        let data = DataDirectory("mid")
        let sandbox = try SandboxProcess(["--data", data.path])
        let port = sandbox.port
        let answered = Answered()
        let enough = DispatchSemaphore(value: 0)
        // Two clients create sessions as fast as they can; the process dies under them.
        for _ in 0..<2 {
            Thread.detachNewThread {
                while true {
                    guard let created = try? Self.call(port, .post, "/checkout/v1/session"), created.status == 201,
                        let purchaseId = created.json["purchaseId"] as? String
                    else { return }
                    if answered.add(purchaseId) == 40 { enough.signal() }
                }
            }
        }
        #expect(enough.wait(timeout: .now() + 60) == .success, "forty sessions were created")
        _ = sandbox.stop(with: SIGKILL)
        let kept = answered.all
        let again = try SandboxProcess(["--data", data.path])
        for purchaseId in kept {
            #expect(try Self.state(again.port, purchaseId) == "created", "\(purchaseId) was answered 201")
        }
        #expect(again.stop().status == 0)
    }

    /// The purchase ids the sandbox answered, from several threads.
    final class Answered: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [String] = []

        func add(_ id: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            ids.append(id)
            return ids.count
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return ids
        }
    }

    @Test("a record cut short at the end is dropped with a warning, and the sandbox starts with the rest")
    func tornRecord() throws {
        let data = DataDirectory("torn")
        let first = try SandboxProcess(["--data", data.path])
        let purchaseId = try Self.create(first.port)
        _ = first.stop(with: SIGKILL)
        let handle = try #require(FileHandle(forWritingAtPath: data.journal))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"session":{"index":1,"tok"#.utf8))
        handle.closeFile()
        let second = try SandboxProcess(["--data", data.path])
        #expect(
            second.startLine.contains(
                "warning: \(data.path)/sandbox.jsonl: its last record was cut short (the sandbox stopped while "
                    + "writing it, before answering); 26 bytes dropped\n"), "\(second.startLine)")
        #expect(try Self.state(second.port, purchaseId) == "created")
        #expect(try data.lines().allSatisfy { $0.hasSuffix("}") })
        #expect(second.stop().status == 0)
    }

    /// A session's record as the sandbox writes it, created at 1 s.
    static let record =
        #"{"session":{"index":0,"token":"0123456789abcdef0123456789abcdef","purchaseId":"pr_kept","orderId":"1234567890","created":1000,"offerName":"Starter Pack","offerSku":"starter_pack_001","items":[],"price":499,"currency":"USD","customerId":"cust_1","country":"US","state":"created","paymentMethod":"","date":0,"eventCount":1}}"#

    @Test("a session kept past its hour expires by its own clock once the sandbox is back")
    func expiresByItsClock() throws {
        let data = DataDirectory("clock")
        try FileManager.default.createDirectory(atPath: data.path, withIntermediateDirectories: true)
        try Data((#"{"format":"paylinks-sandbox","version":1,"seed":"1"}"# + "\n" + Self.record + "\n").utf8).write(
            to: URL(fileURLWithPath: data.journal))
        let sandbox = try SandboxProcess(["--data", data.path])
        #expect(try Self.state(sandbox.port, "pr_kept") == "payment_canceled")
        #expect(sandbox.stop().stderr.contains("session pr_kept expired unpaid\n"))
    }

    @Test(
        "a directory that cannot be used is one error line and its exit code, before anything listens",
        arguments: [
            ("newer", 65, "is of format version 2, newer than this paylinks reads (1); use a newer paylinks"),
            ("stranger", 65, "holds 'notes.txt' and no sandbox.jsonl: it is another program's directory"),
            ("damaged", 65, "sandbox.jsonl:2: index is missing or not an integer; the journal is damaged"),
            // A whole last line is damage too: only bytes after the last line feed are cut short.
            ("damaged-last", 65, "sandbox.jsonl:2: index is missing or not an integer; the journal is damaged"),
            ("syntax", 65, "sandbox.jsonl:2:13: "),
            (
                "extreme", 65,
                "sandbox.jsonl:2:21: index is 9223372036854775807, outside 0 to 1099511627776, where the sandbox writes it; the journal is damaged"
            ),
            ("link", 65, "sandbox.jsonl is a symbolic link; the journal is rewritten in place"),
            ("file", 73, "is a file, not a directory; give a directory"),
            ("under-a-file", 73, "cannot be created: "),
            ("other-seed", 64, "holds sessions whose ids come from --seed 7, not 1; leave --seed out or give 7"),
        ])
    func unusable(kind: String, code: Int32, message: String) throws {
        let data = DataDirectory(kind)
        var path = data.path
        let manager = FileManager.default
        switch kind {
        case "file", "under-a-file":
            _ = manager.createFile(atPath: data.path, contents: Data("x".utf8))
            if kind == "under-a-file" { path += "/data" }
        case "stranger":
            try manager.createDirectory(atPath: data.path, withIntermediateDirectories: true)
            _ = manager.createFile(atPath: data.path + "/notes.txt", contents: Data())
        case "link":
            try manager.createDirectory(atPath: data.path, withIntermediateDirectories: true)
            try manager.createSymbolicLink(atPath: data.journal, withDestinationPath: data.path + "-elsewhere")
        default:
            try manager.createDirectory(atPath: data.path, withIntermediateDirectories: true)
            let header =
                kind == "newer"
                ? #"{"format":"paylinks-sandbox","version":2,"seed":"1"}"#
                : #"{"format":"paylinks-sandbox","version":1,"seed":"\#(kind == "other-seed" ? 7 : 1)"}"#
            let damage =
                switch kind {
                case "damaged": #"{"session":{"state":"spent"}}"# + "\n" + "{}\n"
                case "damaged-last": #"{"session":{"state":"spent"}}"# + "\n"
                case "syntax": #"{"session":{,}}"# + "\n"
                case "extreme":
                    Self.record.replacingOccurrences(of: #""index":0"#, with: #""index":9223372036854775807"#) + "\n"
                default: ""
                }
            _ = manager.createFile(atPath: data.journal, contents: Data((header + "\n" + damage).utf8))
        }
        let journal = FileManager.default.contents(atPath: data.journal)
        let outcome = try BinaryTests.run(["serve", "--port", "0", "--seed", "1", "--data", path])
        #expect(outcome.status == code, "\(outcome.stderr)")
        #expect(FileManager.default.contents(atPath: data.journal) == journal, "a journal refused is left as it was")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("paylinks sandbox at"))
    }

    @Test(
        "a directory with only hidden files (.DS_Store, .gitkeep) is taken; a first line without its line feed is read")
    func hiddenFilesAndHeader() throws {
        let data = DataDirectory("hidden")
        try FileManager.default.createDirectory(atPath: data.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: data.path + "/.gitkeep", contents: Data())
        let first = try SandboxProcess(["--data", data.path])
        #expect(first.stop().status == 0)
        try Data(#"{"format":"paylinks-sandbox","version":1,"seed":"1"}"#.utf8).write(
            to: URL(fileURLWithPath: data.journal))
        let second = try SandboxProcess(["--data", data.path])
        let purchaseId = try Self.create(second.port)
        #expect(second.stop().status == 0)
        let third = try SandboxProcess(["--data", data.path])
        #expect(try Self.state(third.port, purchaseId) == "created")
        #expect(third.stop().status == 0)
    }

    @Test("a session made after a restart never takes the ids of one forgotten before it")
    func idsNeverReused() throws {
        let data = DataDirectory("ids")
        try FileManager.default.createDirectory(atPath: data.path, withIntermediateDirectories: true)
        // A journal rewritten after seven sessions were made and forgotten holds its header alone.
        try Data((#"{"format":"paylinks-sandbox","version":1,"seed":"1","sessionsMade":7}"# + "\n").utf8).write(
            to: URL(fileURLWithPath: data.journal))
        let sandbox = try SandboxProcess(["--data", data.path])
        let purchaseId = try Self.create(sandbox.port)
        #expect(purchaseId == CheckoutIdentifiers(seed: 1, index: 7).purchaseId)
        #expect(sandbox.stop().status == 0)
        // The rewrite the start made keeps the count in its turn.
        let header = try data.lines().first ?? ""
        #expect(header.contains(#""sessionsMade":7"#), "\(header)")
        let again = try SandboxProcess(["--data", data.path])
        #expect(try Self.create(again.port) == CheckoutIdentifiers(seed: 1, index: 8).purchaseId)
        #expect(again.stop().status == 0)
    }

    /// The journal's file number: a rewrite puts another file in its place.
    static func inode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]) as? Int
    }

    @Test(
        "a start rewrites the journal only when it holds more than is kept, so a fresh one is never replaced under a run"
    )
    func rewriteOnlyWhatShrinks() throws {
        let data = DataDirectory("rewrite-when-due")
        let fresh = try SandboxProcess(["--data", data.path])
        let first = try #require(Self.inode(data.journal))
        let purchaseId = try Self.create(fresh.port)
        #expect(fresh.stop().status == 0)
        #expect(Self.inode(data.journal) == first, "a journal holding only what is kept stays the same file")
        // A payment supersedes the session's first record: the next start drops it.
        let second = try SandboxProcess(["--data", data.path])
        _ = try Self.call(second.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        #expect(second.stop().status == 0)
        #expect(try data.lines().count == 3)
        let third = try SandboxProcess(["--data", data.path])
        #expect(third.stop().status == 0)
        #expect(Self.inode(data.journal) != first, "the superseded record was dropped by a rewrite")
        #expect(try data.lines().count == 2)
    }

    @Test("a second sandbox on the same directory is refused while the first runs")
    func locked() throws {
        let data = DataDirectory("lock")
        let first = try SandboxProcess(["--data", data.path])
        let second = try BinaryTests.run(["serve", "--port", "0", "--data", data.path])
        #expect(second.status == ExitCode.unavailable.rawValue)
        #expect(
            second.stderr
                == "error: --data '\(data.path)' is in use by another sandbox; stop it, or give another directory\n")
        #expect(first.stop().status == 0)
        let third = try SandboxProcess(["--data", data.path])
        #expect(third.stop().status == 0, "the lock goes with the process")
    }

    /// The deliveries the sandbox on `port` lists for `query`, waiting (up to 10 s) until
    /// `count` are there: deliveries are recorded as they end, after the request that caused them.
    static func deliveries(_ port: Int, _ query: String = "", count: Int) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let listing = try call(port, .get, "/control/v1/deliveries" + (query.isEmpty ? "" : "?" + query))
            let found = listing.json["deliveries"] as? [[String: Any]] ?? []
            if found.count >= count || Date() > deadline { return found }
            usleep(20_000)
        }
    }

    @Test(
        "every award and event delivery is listed with its request and answer, kept across a restart; Retry Award grants a Failed (Charged) order"
    )
    func historyAndRetryAward() throws {
        let data = DataDirectory("history")
        let game = try ExampleGameServer()
        let base = "http://127.0.0.1:\(game.port)"
        let wrongKey = data.path + "-key"
        try Data("not-the-game-servers-key".utf8).write(to: URL(fileURLWithPath: wrongKey))
        defer { try? FileManager.default.removeItem(atPath: wrongKey) }
        let endpoints = ["--data", data.path, "--award-url", base + "/award", "--events-url", base + "/events"]
        let first = try SandboxProcess(endpoints + ["--main-key-file", wrongKey])
        let purchaseId = try Self.create(first.port)
        _ = try Self.call(first.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        // order.created, order.payment.resolved and the award: three deliveries, all refused.
        let all = try Self.deliveries(first.port, count: 3)
        #expect(all.count == 3)
        let awards = try Self.deliveries(first.port, "kind=award&failed=true&purchaseId=\(purchaseId)", count: 1)
        let award = try #require(awards.first)
        #expect(award["name"] as? String == "award")
        #expect(award["succeeded"] as? Bool == false)
        let attempts = try #require(award["attempts"] as? [[String: Any]])
        #expect(attempts.count == 3)
        for attempt in attempts {
            let response = try #require(attempt["response"] as? [String: Any])
            #expect(response["status"] as? Int == 401)
            #expect((response["body"] as? String)?.contains("signature mismatch") == true)
            let headers = try #require((attempt["request"] as? [String: Any])?["headers"] as? [[String]])
            #expect(headers.contains { $0.first == "signature" && $0.last?.hasPrefix("t=") == true })
            #expect(attempt["error"] as? String == "the server answered 401")
        }
        let listing = try Self.call(first.port, .get, "/control/v1/deliveries?limit=100")
        #expect(!"\(listing.json)".contains("not-the-game-servers-key"), "the key is in no delivery")
        // Pages: newest first, a cursor to the next.
        let page = try Self.call(first.port, .get, "/control/v1/deliveries?limit=2")
        let ids = (page.json["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids == ["dl_3", "dl_2"])
        #expect(page.json["nextCursor"] as? String == "dl_2")
        let rest = try Self.call(first.port, .get, "/control/v1/deliveries?limit=2&cursor=dl_2")
        #expect((rest.json["deliveries"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["dl_1"])
        #expect(rest.json["nextCursor"] is NSNull)
        #expect(try Self.call(first.port, .get, "/control/v1/deliveries?kind=refund").status == 400)
        #expect(try Self.state(first.port, purchaseId) == "charge_failed")
        #expect(first.stop().status == 0)

        // Back with the right key: the history is there, and Retry Award grants the order.
        let second = try SandboxProcess(endpoints)
        #expect(second.startLine.contains("1 session and 3 deliveries kept"), "\(second.startLine)")
        let retry = try Self.call(second.port, .post, "/control/v1/sessions/\(purchaseId)/retry-award")
        #expect(retry.status == 202)
        let granted = try Self.deliveries(second.port, "kind=award&purchaseId=\(purchaseId)", count: 2)
        let manual = try #require(granted.first)
        #expect(manual["succeeded"] as? Bool == true)
        #expect((manual["body"] as? String)?.contains(#""awardFlow":"manual_retry""#) == true)
        // The order's completion follows the grant.
        _ = try Self.deliveries(second.port, "kind=event", count: 3)
        #expect(try Self.state(second.port, purchaseId) == "charge_succeed")
        let again = try Self.call(second.port, .post, "/control/v1/sessions/\(purchaseId)/retry-award")
        #expect(again.status == 409)
        #expect((again.json["errorMessage"] as? String)?.contains("this one is charge_succeed") == true)
        #expect(try game.grants().count == 1)
        #expect(second.stop().status == 0)
    }

    @Test("a replay sends a delivery again exactly (the same signature) or newly signed, and is a delivery of its own")
    func replay() throws {
        let game = try ExampleGameServer()
        let base = "http://127.0.0.1:\(game.port)"
        let wrongKey = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-replay-key-\(getpid())")
            .path
        try Data("not-the-events-key".utf8).write(to: URL(fileURLWithPath: wrongKey))
        defer { try? FileManager.default.removeItem(atPath: wrongKey) }
        // Events signed with a wrong events key, replays newly signed with the same key: refused;
        // with the right one (a sandbox of its own), accepted.
        let sandbox = try SandboxProcess(["--events-url", base + "/events", "--events-key-file", wrongKey])
        let purchaseId = try Self.create(sandbox.port)
        // The order comes to be with the player's choice: order.created is sent then.
        _ = try Self.call(sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pending"}"#)
        let created = try #require(try Self.deliveries(sandbox.port, count: 1).first)
        #expect(created["succeeded"] as? Bool == false)
        let exact = try Self.call(sandbox.port, .post, "/control/v1/deliveries/dl_1/replay", #"{"resign": false}"#)
        #expect(exact.status == 202)
        let resigned = try Self.call(sandbox.port, .post, "/control/v1/deliveries/dl_1/replay", #"{"resign": true}"#)
        #expect(resigned.status == 202)
        let listed = try Self.deliveries(sandbox.port, count: 3)
        let byId = Dictionary(
            uniqueKeysWithValues: listed.compactMap { item in (item["id"] as? String).map { ($0, item) } })
        func signature(_ id: String) -> String? {
            let attempts = byId[id]?["attempts"] as? [[String: Any]]
            let headers = (attempts?.first?["request"] as? [String: Any])?["headers"] as? [[String]]
            return headers?.first { $0.first == "signature" }?.last
        }
        let replays = listed.filter { $0["replayOf"] as? String == "dl_1" }
        #expect(replays.count == 2)
        let exactCopy = try #require(replays.first { $0["resigned"] as? Bool == false }?["id"] as? String)
        let newCopy = try #require(replays.first { $0["resigned"] as? Bool == true }?["id"] as? String)
        #expect(signature(exactCopy) == signature("dl_1"), "sent exactly: the first attempt's signature")
        #expect(signature(newCopy) != signature("dl_1"), "newly signed")
        #expect(byId[newCopy]?["body"] as? String == byId["dl_1"]?["body"] as? String)
        #expect(try Self.call(sandbox.port, .post, "/control/v1/deliveries/dl_9/replay").status == 404)
        #expect(
            try Self.call(sandbox.port, .post, "/control/v1/deliveries/dl_1/replay", #"{"resign": 1}"#).status == 400)
        #expect(sandbox.stop().status == 0)
    }

    @Test("the reporting APIs answer from the sandbox's sessions, with the publisher token, in the documented shapes")
    func reporting() throws {
        let sandbox = try SandboxProcess()
        let purchaseId = try Self.create(sandbox.port)
        _ = try Self.call(sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let orders = try Self.call(
            sandbox.port, .post, "/reporting/reports/orders", #"{"startDate":"\#(today)","endDate":"\#(today)"}"#)
        #expect(orders.status == 200)
        #expect(orders.json["totalCount"] as? Int == 1)
        let order = try #require((orders.json["results"] as? [[String: Any]])?.first)
        #expect(order["state"] as? String == "charge_succeed")
        let transactions = try Self.call(
            sandbox.port, .get, "/reporting/financial-data/transactions?startDate=\(today)&endDate=\(today)")
        #expect(transactions.status == 200)
        let details = (transactions.json["results"] as? [[String: Any]])?.first?["transactionDetails"] as? [String: Any]
        #expect(details?["type"] as? String == "paid")
        // $4.99 and 8.875% US sales tax, in cents; Appcharge's fee and the net as the orders report has them.
        #expect(details?["amount"] as? Int == 543 && details?["totalTaxAmountUsd"] as? Int == 44)
        #expect(details?["transactionFeeUsd"] as? Int == 75 && order["estimatedAppchargeFee"] as? Int == 75)
        #expect(details?["publisherNetAmountUsd"] as? Int == order["estimatedPublisherNetAmount"] as? Int)
        let bad = try Self.call(sandbox.port, .get, "/reporting/financial-data/transactions?limit=0")
        #expect(bad.status == 400)
        #expect(bad.json["error"] as? String == "Bad Request")
        #expect((bad.json["message"] as? [[String: Any]])?.count == 3)
        #expect(bad.json["requestUrl"] as? String == "/reporting/financial-data/transactions")
        let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/reporting/reports/orders"))
        defer { client.close() }
        let anonymous = try client.sendChecked(
            headers: [HTTPHeader("Content-Type", "application/json")], body: Array("{}".utf8))
        #expect(anonymous.status == 401)
        #expect(String(decoding: anonymous.body, as: UTF8.self).contains("Publisher token is required."))
        #expect(sandbox.stop().status == 0)
    }

    @Test("a wrong orders query gets the same answer, byte for byte, from two sandboxes hashing with their own seeds")
    func reportingProblemsInOrder() throws {
        let query =
            #"{"startDate": "2024-06-12", "zeta": 1, "alpha": 2, "recordLimit": 0, "mid": 3, "isFree": 1, "#
            + (0..<30).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ") + "}"
        var answers: [[UInt8]] = []
        for _ in 0..<2 {
            let sandbox = try SandboxProcess()
            let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/reporting/reports/orders"))
            let answer = try client.sendChecked(
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", Self.token)],
                body: Array(query.utf8))
            client.close()
            #expect(answer.status == 400)
            answers.append(answer.body)
            #expect(sandbox.stop().status == 0)
        }
        #expect(answers[0] == answers[1], "\(String(decoding: answers[0], as: UTF8.self))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answers[0])) as? [String: Any])
        let reasons = try #require(json["message"] as? [[String: Any]]).compactMap { $0["error"] as? String }
        // In the order of the query's keys.
        #expect(
            reasons.prefix(7).map { String($0.prefix { $0 != " " }) }
                == ["endDate", "zeta", "alpha", "recordLimit", "mid", "isFree", "k0"], "\(reasons)")
    }

    @Test("the dashboard's forms act on an order and come back to its page with what they came to, escaped")
    func dashboardForms() throws {
        let sandbox = try SandboxProcess()
        let purchaseId = try Self.create(sandbox.port)
        _ = try Self.call(sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        func page(_ location: String) throws -> String {
            let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)\(location)"))
            defer { client.close() }
            return String(decoding: try client.sendChecked(method: .get, headers: [], body: []).body, as: UTF8.self)
        }
        // The token the page's forms carry, as a browser sends it with each.
        let field = #"name="formToken" value=""#
        let order = try page("/orders/\(purchaseId)")
        let token = try #require(order.components(separatedBy: field).dropFirst().first?.prefix { $0 != "\"" })
        func post(_ path: String, _ form: String) throws -> HTTPResponse {
            let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)\(path)"))
            defer { client.close() }
            return try client.sendChecked(
                headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("\(form)&formToken=\(token)".utf8))
        }
        let refund = try post("/orders/\(purchaseId)/refund", "amount=100&outcome=refunded")
        #expect(refund.status == 303)
        let done = try #require(refund.header("Location"))
        #expect(done.hasPrefix("/orders/\(purchaseId)?said="))
        let refunded = try page(done)
        #expect(refunded.contains(#"<p class="said">done: the order is payment_refunded</p>"#))
        #expect(refunded.contains("refund of 1.00 USD asked for"))
        let dispute = try post("/orders/\(purchaseId)/dispute", "outcome=won")
        let refused = try page(try #require(dispute.header("Location")))
        #expect(
            refused.contains(#"<p class="said problem">the order is payment_refunded; a dispute needs a paid order"#))
        let badAmount = try post("/orders/\(purchaseId)/refund", "amount=-5")
        #expect(try page(try #require(badAmount.header("Location"))).contains(#"<p class="said problem">"#))
        let forged = try page("/orders/\(purchaseId)?said=%3Cscript%3Ealert(1)%3C%2Fscript%3E&problem=1")
        #expect(!forged.contains("alert(1)"))
        #expect(!forged.contains(#"<p class="said"#))
        let home = try page("/")
        #expect(home.contains(#"<a href="/orders/\#(purchaseId)">"#))
        #expect(try page("/orders/pr_nothing").contains("No such order"))
        #expect(sandbox.stop().status == 0)
    }
}

/// The journal's own bounds, without a server.
@Suite("The sandbox's journal")
struct SandboxJournalTests {
    /// What a journal holds, read as a start reads it: the sessions (the last record of
    /// each), the deliveries, and the bytes cut short at its end.
    static func read(_ bytes: [UInt8], chunk: Int = 1 << 20) throws(JournalReader.Problem) -> (
        seed: UInt64?, sessions: [CheckoutSessions.Session], deliveries: [DeliveryHistory.Delivery], torn: Int
    ) {
        var reader = JournalReader()
        var sessions: [String: CheckoutSessions.Session] = [:]
        var order: [String] = []
        var deliveries: [DeliveryHistory.Delivery] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try reader.feed(bytes[start..<end]) { _ in
                { record in
                    switch record {
                    case .session(let session):
                        if sessions[session.token] == nil { order.append(session.token) }
                        sessions[session.token] = session
                    case .delivery(let delivery): deliveries.append(delivery)
                    case .made, .clock, .pricePoint, .blockedPlayers: break
                    }
                }
            }
            start = end
        }
        return (reader.seed, order.compactMap { sessions[$0] }, deliveries, reader.tornBytes)
    }

    @Test("the journal rewrites itself once it grows past four times its size, keeping one record a session")
    func compactsItself() throws {
        let data = SandboxDataTests.DataDirectory("compact")
        let (store, warnings) = try SandboxStore.open(data.path, seed: 1, newSeed: { 1 }) { _ in { _ in } }
        #expect(warnings.isEmpty)
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 100)
        let (session, _) = try sessions.create(try SessionRequest(SandboxDataTests.body), now: 0)
        var largest = 0
        for _ in 0..<4000 {
            #expect(store.keep(SandboxStore.Held(sessions: [session]), live: { (sessions.held, [], nil, []) }) == nil)
            largest = max(
                largest, (try? FileManager.default.attributesOfItem(atPath: data.journal)[.size] as? Int) ?? 0)
        }
        store.finishRewrite(waiting: true)
        // A rewrite runs while records go on being added to the journal it replaces.
        #expect(largest <= 2 << 20, "never far past 1 MiB: \(largest) bytes")
        let lines = try data.lines()
        #expect(lines.count < 4000 / 2, "rewritten along the way: \(lines.count) lines")
        let read = try Self.read(Array(try Data(contentsOf: URL(fileURLWithPath: data.journal))))
        #expect(read.sessions.map(\.token) == [session.token])
        #expect(read.torn == 0)
    }

    @Test("a change readied while the disk refused writes is written as a change never readied is, long lines and all")
    func readied() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 100)
        let long = String(decoding: SandboxDataTests.body, as: UTF8.self)
            .replacingOccurrences(of: "Starter Pack", with: String(repeating: "n", count: 100_000))
        let made = try [SandboxDataTests.body, Array(long.utf8), SandboxDataTests.body].map {
            try sessions.create(try SessionRequest($0), now: 0).0
        }
        var journals: [[UInt8]] = []
        for readying in [false, true] {
            let data = SandboxDataTests.DataDirectory(readying ? "readied" : "unreadied")
            let (store, _) = try SandboxStore.open(data.path, seed: 1, newSeed: { 1 }) { _ in { _ in } }
            let before = try Data(contentsOf: URL(fileURLWithPath: data.journal))
            if readying {
                store.ready(SandboxStore.Held(sessions: made))
                #expect(try Data(contentsOf: URL(fileURLWithPath: data.journal)) == before, "readying writes nothing")
            }
            #expect(store.keep(SandboxStore.Held(sessions: made), live: { (sessions.held, [], nil, []) }) == nil)
            journals.append(Array(try Data(contentsOf: URL(fileURLWithPath: data.journal))))
        }
        #expect(journals[0] == journals[1])
        #expect(try Self.read(journals[1]).sessions.map(\.token) == made.map(\.token))
        #expect(journals[1].count > 100_000)
    }

    /// A journal of a header and `records`, each a line.
    static func journal(_ records: [String]) -> [UInt8] {
        Array(([#"{"format":"paylinks-sandbox","version":1,"seed":"1"}"#] + records).map { $0 + "\n" }.joined().utf8)
    }

    @Test("a journal reads the same however its bytes are split into chunks")
    func anyChunks() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 100)
        var records: [String] = []
        for index in 0..<20 {
            let (session, _) = try sessions.create(try SessionRequest(SandboxDataTests.body), now: index)
            records.append(#"{"session":"# + String(decoding: session.record, as: UTF8.self) + "}")
        }
        let bytes = Self.journal(records)
        let whole = try Self.read(bytes)
        #expect(whole.sessions.count == 20)
        for chunk in [1, 7, 4096] {
            let split = try Self.read(bytes, chunk: chunk)
            #expect(split.sessions.map(\.record) == whole.sessions.map(\.record), "chunks of \(chunk)")
            #expect(split.seed == 1)
        }
    }

    @Test(
        "a number outside the range the sandbox writes it in is damage, named with its line",
        arguments: [
            (#""index":0"#, #""index":9223372036854775807"#, "index is 9223372036854775807"),
            (#""created":1000"#, #""created":-9223372036854775808"#, "created is -9223372036854775808"),
            (#""date":0"#, #""date":9223372036854775807"#, "date is 9223372036854775807"),
            (#""price":499"#, #""price":499,"pricePointMetadata":9223372036854775807"#, "pricePointMetadata is"),
            (#""eventCount":1"#, #""eventCount":-1"#, "eventCount is -1"),
        ])
    func extremeNumbers(member: String, replacement: String, reason: String) throws {
        let record = SandboxDataTests.record.replacingOccurrences(of: member, with: replacement)
        #expect(record != SandboxDataTests.record)
        #expect {
            _ = try Self.read(Self.journal([record]))
        } throws: { error in
            guard case .damaged(let line, _, let said) = error as? JournalReader.Problem else { return false }
            return line == 2 && said.hasPrefix(reason) && said.contains("where the sandbox writes it")
        }
    }

    @Test(
        "a price point the API would refuse is damage, named with its line",
        arguments: [
            (#"{"priceInUsdCents":79,"deleted":true}"#, "priceInUsdCents is 79, outside 80 to 500000"),
            (
                #"{"priceInUsdCents":500001,"lastUpdate":0,"fromCatalog":false,"priceOverrides":[]}"#,
                "priceInUsdCents is 500001, outside 80 to 500000"
            ),
            (
                #"{"priceInUsdCents":1299,"lastUpdate":0,"fromCatalog":false,"#
                    + #""priceOverrides":[{"countryCode2":"DE","price":0}]}"#,
                "priceOverrides: price is missing or not a decimal above 0"
            ),
            (
                #"{"priceInUsdCents":1299,"lastUpdate":0,"fromCatalog":false,"priceOverrides":["#
                    + #"{"countryCode2":"DE","price":9.99},{"countryCode2":"DE","price":8.99}]}"#,
                "priceOverrides: DE is given twice"
            ),
        ])
    func refusedPricePoint(record: String, reason: String) throws {
        #expect {
            _ = try Self.read(Self.journal([#"{"clock":{"now":1000}}"#, #"{"pricePoint":"# + record + "}"]))
        } throws: { error in
            guard case .damaged(let line, _, let said) = error as? JournalReader.Problem else { return false }
            return line == 3 && said.hasPrefix(reason)
        }
    }

    @Test(
        "a delivery whose numbers are outside their ranges is damage",
        arguments: [
            #""id":"dl_9223372036854775807""#, #""milliseconds":9223372036854775807"#,
            #""sentAfter":-5"#, #""status":99999"#, #""replayOf":"dl_0""#,
        ])
    func extremeDelivery(member: String) throws {
        var history = DeliveryHistory()
        var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [("signature", "t=1,v1=ab")])
        attempt.judge(status: 200, body: Array(#"{"publisherPurchaseId":"g1"}"#.utf8))
        let delivery = history.add(
            kind: .award, purchaseId: "pr_1", name: "award", url: "http://127.0.0.1:1/award", body: Array("{}".utf8),
            attempts: [attempt], replayOf: 1)
        let good = #"{"delivery":"# + String(decoding: delivery.json, as: UTF8.self) + "}"
        #expect(try Self.read(Self.journal([good])).deliveries.count == 1)
        let name = member.split(separator: ":")[0]
        let bad = good.replacingOccurrences(
            of: #"\#(name):[^,}]*"#, with: member, options: .regularExpression)
        #expect(bad != good)
        #expect(throws: JournalReader.Problem.self) { _ = try Self.read(Self.journal([bad])) }
    }

    @Test("only the bytes after the last line feed are cut short; a whole line that does not read is damage")
    func tornOrDamaged() throws {
        let record = SandboxDataTests.record
        let torn = try Self.read(Self.journal([record]) + Array(record.prefix(30).utf8))
        #expect(torn.torn == 30)
        #expect(torn.sessions.count == 1)
        #expect(
            throws: JournalReader.Problem.damaged(
                line: 3, column: 31, reason: "unexpected end of the line; expected a value")
        ) {
            _ = try Self.read(Self.journal([record, String(record.prefix(30))]))
        }
        // Blank lines, which a hand that edits may leave, are none.
        #expect(try Self.read(Self.journal(["", record, " \r"])).sessions.count == 1)
        let long = Array(repeating: UInt8(ascii: " "), count: JournalReader.recordLimit + 1)
        #expect {
            _ = try Self.read(Self.journal([]) + long)
        } throws: { error in
            guard case .damaged(2, nil, let reason) = error as? JournalReader.Problem else { return false }
            return reason.contains("longer than 16 MiB")
        }
    }

    @Test("a journal whose first line was cut short is as good as new; another file is not a journal")
    func unstarted() throws {
        for text in ["", #"{"format":"paylinks-sa"#, #"{"format":"paylinks-sandbox","version":1,"seed":"12"#] {
            var reader = JournalReader()
            try reader.feed(Array(text.utf8)[...]) { _ in { _ in } }
            #expect(reader.isUnstarted, "\(text)")
        }
        var whole = JournalReader()
        let header = Array(#"{"format":"paylinks-sandbox","version":1,"seed":"12"}"#.utf8)
        try whole.feed(header[...]) { _ in { _ in } }
        #expect(whole.finish { _ in { _ in } }, "a first line whole but for its line feed")
        #expect(whole.seed == 12)
        var other = JournalReader()
        try other.feed(Array("hello".utf8)[...]) { _ in { _ in } }
        #expect(!other.isUnstarted)
        #expect(throws: JournalReader.Problem.notAJournal) { _ = try Self.read(Array("hello\n".utf8)) }
    }
}
