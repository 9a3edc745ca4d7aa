import Foundation
import PaylinksHTTP
import Testing

/// A journal of the sandbox's format version 1, written by an earlier release of paylinks
/// (`Golden/journal-version-1.jsonl`: four orders paid, one refunded, one disputed and lost,
/// an award replayed exactly and re-signed), opens in this one and answers as it did.
@Suite("The journal's format", .serialized)
struct JournalFormatTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/journal-version-1.jsonl")

    @Test("a version 1 journal opens: every session, state, order id and delivery reads back")
    func versionOneOpens() throws {
        let data = SandboxDataTests.DataDirectory("format")
        try FileManager.default.createDirectory(atPath: data.path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: data.journal)
        let sandbox = try SandboxProcess(["--data", data.path])
        #expect(sandbox.startLine.contains("4 sessions and 6 deliveries kept"))
        let expected = [
            ("pr_b6pu3vuq0dhoz2scxoyr2a9h", "charge_succeed", "4200822465"),
            ("pr_fw0abkxkvqpz5a5ocnogimb2", "payment_refunded", "6267250984"),
            ("pr_usd8uqcj3s0rv9b91cdigxlz", "payment_dispute_lost", "8333679503"),
            ("pr_scr2errb3iygdvn6q8yy0b53", "charge_succeed", "1400108022"),
        ]
        for (purchaseId, state, orderId) in expected {
            let session = try SandboxDataTests.call(sandbox.port, .get, "/control/v1/sessions/\(purchaseId)")
            #expect(session.status == 200)
            #expect(session.json["state"] as? String == state, "\(purchaseId)")
            #expect(session.json["orderId"] as? String == orderId, "\(purchaseId)")
        }
        let listed = try SandboxDataTests.call(
            sandbox.port, .get, "/control/v1/deliveries?purchaseId=pr_b6pu3vuq0dhoz2scxoyr2a9h")
        let deliveries = try #require(listed.json["deliveries"] as? [[String: Any]])
        #expect(deliveries.compactMap { $0["id"] as? String }.sorted() == ["dl_1", "dl_5", "dl_6"])
        let replays = deliveries.filter { $0["replayOf"] as? String == "dl_1" }
        #expect(replays.compactMap { $0["resigned"] as? Bool }.sorted { !$0 && $1 } == [false, true])
        // The counters go on from the journal's: the next session is the fifth, the next delivery dl_7.
        let fresh = try SandboxDataTests.create(sandbox.port)
        #expect(!expected.map(\.0).contains(fresh))
        let stopped = sandbox.stop()
        #expect(stopped.status == 0)
        // What was read is written back in the same format: version 1, the same sessions.
        let lines = try data.lines()
        #expect(lines.first?.contains(#""format":"paylinks-sandbox","version":1"#) == true)
        for (purchaseId, _, _) in expected {
            #expect(lines.contains { $0.contains(purchaseId) }, "\(purchaseId) kept")
        }
    }
}
