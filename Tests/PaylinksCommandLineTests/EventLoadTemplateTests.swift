import Foundation
import Testing

@testable import PaylinksCommandLine

/// An event load's predicted orders, their events filled into a template proven on two
/// orders lived on Appcharge's side: the game's server receives the very bodies it would
/// if every order were lived, and the output is the same.
@Suite("Event load template")
@MainActor
struct EventLoadTemplateTests {
    /// The bodies `arguments` send to a receiver, sorted (the load sends them over
    /// several connections), and its standard output without the times of the answers.
    static func run(_ arguments: [String]) throws -> (bodies: [String], stdout: String) {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--events-url", receiver.url, "--json"] + arguments
                + ["--seed", "4", "--now", "1718182312"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        // The time each answer took is the one thing that may differ.
        let parts = result.stdout.replacingOccurrences(of: receiver.url, with: "URL").components(
            separatedBy: "\"milliseconds\":")
        let stdout = ([parts[0]] + parts.dropFirst().map { String($0.drop { $0.isNumber }) }).joined(separator: "|")
        return (receiver.received.map { String(decoding: $0.body, as: UTF8.self) }.sorted(), stdout)
    }

    @Test(
        "a load of predicted orders sends the bodies of every order lived, and writes the same lines",
        arguments: ["v2", "v1"])
    func sameAsLivingEvery(version: String) throws {
        let filled = try Self.run(["--count", "14", "--concurrency", "4", "--events-version", version])
        // --trace lives every order on Appcharge's side.
        let lived = try Self.run(["--count", "14", "--concurrency", "4", "--events-version", version, "--trace"])
        #expect(filled.bodies.count == 14 * 3)
        #expect(filled.bodies == lived.bodies)
        #expect(filled.stdout == lived.stdout)
        // Each order's events are its own: as many ids as events.
        let ids = filled.bodies.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["eventId"] as? String
        }
        #expect(version == "v1" || Set(ids).count == 14 * 3)
    }
}
