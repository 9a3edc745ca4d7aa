import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `serve --data DIR` and Link Out: where the browser goes, and whether the player canceled
/// or closed the window, survive a restart, and the export keeps them.
@Suite("Link Out across a restart", .serialized)
struct LinkOutDataTests {
    /// A session's body with a `redirectUrl`.
    static let body =
        #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Starter Pack","sku":"starter_pack_001"},"customer":{"id":"cust_1"},"redirectUrl":"https://game.example/return?from=shop#top"}"#

    /// One request to the sandbox on `port`: the status and the body as text.
    static func call(_ port: Int, _ method: HTTPMethod, _ path: String, _ body: String = "") throws -> (
        status: Int, text: String
    ) {
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(port)\(path)"), connectTimeout: 5, responseTimeout: 10)
        defer { client.close() }
        let response = try client.sendChecked(
            method: method,
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", SandboxDataTests.token),
            ],
            body: Array(body.utf8))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The members of a JSON object's text.
    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test("a canceled purchase and a closed window keep their redirects across a restart, and the export says which")
    func restart() throws {
        let data = SandboxDataTests.DataDirectory("link-out")
        var ids: [String: String] = [:]
        do {
            let sandbox = try SandboxProcess(["--data", data.path])
            for choice in ["cancel", "close"] {
                let created = try Self.call(sandbox.port, .post, "/checkout/v1/session", Self.body)
                #expect(created.status == 201)
                let purchaseId = try #require(Self.json(created.text)["purchaseId"] as? String)
                let completed = try Self.call(
                    sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"\#(choice)"}"#)
                #expect(completed.status == 200)
                ids[choice] = purchaseId
            }
            _ = sandbox.stop(with: SIGKILL)
        }
        let sandbox = try SandboxProcess(["--data", data.path])
        for (choice, status) in [("cancel", "cancel"), ("close", "fail")] {
            let purchaseId = try #require(ids[choice])
            let state = Self.json(try Self.call(sandbox.port, .get, "/control/v1/sessions/\(purchaseId)").text)
            #expect(state["state"] as? String == "payment_canceled")
            #expect(state["redirect"] as? String == "https://game.example/return?from=shop&status=\(status)#top")
        }
        let export = try Self.call(sandbox.port, .get, "/control/v1/export").text
        #expect(export.components(separatedBy: #""canceledByPlayer":true"#).count == 2)
        #expect(export.contains(#""redirectUrl":"https://game.example/return?from=shop#top""#))
        _ = sandbox.stop()
    }
}
