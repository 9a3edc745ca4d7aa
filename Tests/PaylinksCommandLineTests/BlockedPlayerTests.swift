import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `serve --block-player ID` and the blocked players the control API adds, kept in
/// `--data` across a restart.
@Suite("Blocked players", .serialized)
struct BlockedPlayerTests {
    typealias Data = SandboxDataTests

    /// The usage message of `words`, or nil when they parse.
    static func usage(_ words: [String]) -> String? {
        ArgumentParserTests.usage(words)
    }

    @Test("--block-player is repeatable, once each, and refuses an empty or control-character id")
    @MainActor
    func option() throws {
        let words = ["serve", "--block-player", "a", "--block-player", "b b", "--block-player", "a"]
        let parsed = try #require(try ArgumentParser.parse(["paylinks"] + words).run)
        #expect(parsed.options.blockedPlayers == ["a", "b b"])
        #expect(Self.usage(["serve", "--block-player", ""]) == "--block-player needs a value that is not empty")
        #expect(
            Self.usage(["serve", "--block-player=a\u{7}"])?.hasPrefix("--block-player contains the control") == true)
        #expect(Self.usage(["purchase", "--sku", "starter_pack_001", "--block-player", "a"]) != nil)
    }

    @Test("a player blocked from the start gets 403; the control API's changes survive a restart with --data")
    func keptAcrossARestart() throws {
        let data = Data.DataDirectory("blocked")
        // The sessions of SandboxDataTests.body are cust_1's.
        var sandbox = try SandboxProcess(["--data", data.path, "--block-player", "cust_1"])
        let refused = try Data.call(sandbox.port, .post, "/checkout/v1/session")
        #expect(refused.status == 403)
        #expect(
            refused.json["message"] as? String
                == "Blocked player: this player has been blocked. See the blocked player list in the dashboard for "
                + "more info.")
        #expect(try Data.call(sandbox.port, .post, "/control/v1/blocked-players", #"{"id": "cust_2"}"#).status == 201)
        #expect(try Data.call(sandbox.port, .delete, "/control/v1/blocked-players/cust_1").status == 200)
        let log = sandbox.stop().stderr
        #expect(log.contains("DELETE /control/v1/blocked-players/cust_1 unblocks them"), "\(log)")
        #expect(try data.lines().contains(#"{"blockedPlayers":{"ids":["cust_2"]}}"#))
        sandbox = try SandboxProcess(["--data", data.path])
        #expect(
            try Data.call(sandbox.port, .get, "/control/v1/blocked-players").json["blockedPlayers"] as? [String] == [
                "cust_2"
            ])
        #expect(try Data.call(sandbox.port, .post, "/checkout/v1/session").status == 201)
        _ = sandbox.stop()
    }
}
