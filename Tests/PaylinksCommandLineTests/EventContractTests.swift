import ContractChecks
import Foundation
import Testing
import _OpenAPIContract

@testable import PaylinksCommandLine

/// Every event `paylinks trigger` sends, in each version, held to the document's `eventV1`
/// and `eventV2` webhooks: its headers and body as the command shows them.
@Suite("Events and the OpenAPI document")
@MainActor
struct EventContractTests {
    /// A trigger: the event and its result.
    struct Trigger: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let version: String
        var testDescription: String { (arguments + [version]).joined(separator: " ") }
    }

    nonisolated static let triggers: [Trigger] = [
        ["order.created"], ["order.payment.resolved", "--result", "success"],
        ["order.payment.resolved", "--result", "failed"], ["order.completed"], ["order.canceled"], ["order.refunded"],
        ["order.dispute.opened"], ["order.dispute.resolved", "--result", "won"],
        ["order.dispute.resolved", "--result", "lost"],
    ].flatMap { event in ["v1", "v2"].map { Trigger(arguments: event, version: $0) } }

    @Test("every event body and its headers validate against its version's webhook", arguments: triggers)
    func eventValidates(_ trigger: Trigger) throws {
        let contract = try sandboxContract.get()
        let run = runCLI(["trigger"] + trigger.arguments + ["--events-version", trigger.version, "--json"])
        var events = 0
        for line in run.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? [String: Any]
            else { continue }
            let headers = try #require(event["headers"] as? [String: String])
            let body = try #require(event["body"] as? String)
            events += 1
            let problems = contract.webhookProblems(
                name: trigger.version == "v1" ? "eventV1" : "eventV2", headers: headers.map { ($0.key, $0.value) },
                body: Array(body.utf8))
            #expect(problems == [], "\(event["name"] ?? ""): \(problems.joined(separator: "\n"))")
        }
        #expect(events > 0, "the trigger showed no event: \(run.stderr)")
    }
}
