// libFuzzer target: sandbox journals, as `serve --data` reads them at start. A journal
// that reads is restored into a sandbox, record by record, which then answers what a
// tester asks of it: the dashboard, the newest orders' pages and states, both reports.

import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox

@testable import PaylinksCommandLine

/// libFuzzer's entry point: one input, the bytes of a journal, read in chunks whose size
/// its first byte picks, so that records split anywhere are read too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournals(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = max(1, Int(bytes.first ?? 0) * 7)
    var reader = JournalReader()
    var sandbox: Sandbox?
    let restorer = { (seed: UInt64) -> (Sandbox.Record) -> Void in
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token", seed: seed)
        settings.sessionByteBudget = 1 << 20
        let made = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
        sandbox = made
        return made.restore
    }
    var start = 0
    do {
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try reader.feed(bytes[start..<end], restorer: restorer)
            start = end
        }
    } catch {
        return 0
    }
    guard let sandbox else { return 0 }
    _ = reader.isUnstarted
    sandbox.resumeAwards()
    ask(sandbox, .get, "/")
    ask(sandbox, .get, "/control/v1/deliveries", query: "limit=100")
    ask(
        sandbox, .post, "/reporting/reports/orders",
        body: #"{"startDate":"1970-01-01","endDate":"9999-12-31","recordLimit":1000}"#)
    ask(
        sandbox, .get, "/reporting/financial-data/transactions",
        query: "startDate=1970-01-01&endDate=9999-12-31&limit=10000")
    // A few of each: the pages of one are what the pages of all are, and each costs time.
    for session in sandbox.heldSessions.suffix(3) {
        ask(sandbox, .get, "/orders/" + session.purchaseId)
        ask(sandbox, .get, "/control/v1/sessions/" + session.purchaseId)
        ask(sandbox, .get, "/checkout/" + session.token)
    }
    for delivery in sandbox.heldDeliveries.suffix(3) { ask(sandbox, .get, "/control/v1/deliveries/" + delivery.id) }
    return 0
}

/// One request of a tester's, answered whole.
private func ask(_ sandbox: Sandbox, _ method: HTTPMethod, _ path: String, query: String = "", body: String = "") {
    let headers = [
        HTTPHeader("Host", "127.0.0.1:4010"), HTTPHeader("Content-Type", "application/json"),
        HTTPHeader("x-publisher-token", "token"),
    ]
    _ = sandbox.handle(
        HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array(body.utf8), keepAlive: true)
    )
}
