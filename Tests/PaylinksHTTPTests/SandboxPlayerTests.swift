import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import PaylinksSandbox
import Testing

/// What Create Checkout Session holds a player to: `customer.identitySignals.firstSeenAt`
/// in the past by the sandbox's clock.
@Suite("Sandbox players")
struct SandboxPlayerTests {
    typealias Service = SandboxServiceTests
    typealias Served = SandboxClockTests.Served

    /// A session's body for `customer`, the JSON of its `customer` object.
    static func body(customer: String = #"{"id": "cust_98765"}"#) -> String {
        #"""
        {"priceDetails": {"price": 549, "currency": "EUR"}, "offer": {"name": "Starter Pack", "sku": "starter_pack_001"},
         "customer": \#(customer), "countryCode2": "DE"}
        """#
    }

    static func create(_ served: Served, _ body: String) -> Service.Answer {
        Service.send(
            served.service, .post, "/checkout/v1/session", body: body,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
    }

    static func firstSeen(_ text: String) -> String {
        body(customer: #"{"id": "cust_98765", "identitySignals": {"firstSeenAt": "\#(text)"}}"#)
    }

    @Test("firstSeenAt a second ahead of a virtual clock is refused, a millisecond behind it taken")
    func firstSeenAtAgainstTheClock() throws {
        // The clock stands at 2026-12-01T10:00:00Z.
        let served = try Served()
        let ahead = Self.create(served, Self.firstSeen("2026-12-01T10:00:01Z"))
        #expect(ahead.status == 400, "\(ahead.body)")
        #expect(
            try ahead.json()["errorMessage"] as? String
                == "customer.identitySignals.firstSeenAt 2026-12-01T10:00:01.000Z is not in the past: the sandbox's "
                + "clock says 2026-12-01T10:00:00.000Z; send when the player was first seen, such as the account's "
                + "creation, before now")
        #expect(try ahead.json()["errorCode"] as? Int == 400)
        #expect(Self.create(served, Self.firstSeen("2026-12-01T10:00:00Z")).status == 400, "now is not the past")
        let behind = Self.create(served, Self.firstSeen("2026-12-01T09:59:59.999Z"))
        #expect(behind.status == 201, "\(behind.body)")
        // The same instant with an offset, and a fraction finer than a millisecond.
        #expect(Self.create(served, Self.firstSeen("2026-12-01T11:59:59.9999+02:00")).status == 201)
        #expect(Self.create(served, Self.firstSeen("2026-12-01T12:00:00+02:00")).status == 400)
        // The field is echoed nowhere: not in the answer, not in the session's state.
        #expect(!behind.body.contains("firstSeenAt"))
        let purchaseId = try #require(try behind.json()["purchaseId"] as? String)
        #expect(
            !Service.send(served.service, .get, "/control/v1/sessions/\(purchaseId)").body.contains("2026-12-01T09"))
        // Once the clock has moved past it, the same time is taken.
        #expect(served.advance("PT2S").status == 200)
        #expect(Self.create(served, Self.firstSeen("2026-12-01T10:00:01Z")).status == 201)
    }

    @Test(
        "identitySignals that is not an object, or a firstSeenAt that is not an RFC 3339 time, is 400 naming the field",
        arguments: [
            (
                #"{"id": "c", "identitySignals": "2021-01-01T00:00:00Z"}"#,
                #"customer.identitySignals must be an object, such as {"firstSeenAt": "2021-01-01T00:00:00Z"}, not a string"#
            ),
            (
                #"{"id": "c", "identitySignals": {"firstSeenAt": 1609459200}}"#,
                "customer.identitySignals.firstSeenAt must be a string, an RFC 3339 time such as "
                    + "2021-01-01T00:00:00Z, not a number"
            ),
            (
                #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-01-01"}}"#,
                "customer.identitySignals.firstSeenAt '2021-01-01' is not an RFC 3339 time; send the date, the time "
                    + "and Z or an offset, such as 2021-01-01T00:00:00Z or 2021-01-01T02:00:00.5+02:00"
            ),
            (
                #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-01-01T00:00:00"}}"#,
                "customer.identitySignals.firstSeenAt '2021-01-01T00:00:00' is not an RFC 3339 time"
            ),
            (
                #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-02-30T00:00:00Z"}}"#,
                "customer.identitySignals.firstSeenAt '2021-02-30T00:00:00Z' is not an RFC 3339 time"
            ),
            (
                #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-01-01T00:00:00.Z"}}"#,
                "customer.identitySignals.firstSeenAt '2021-01-01T00:00:00.Z' is not an RFC 3339 time"
            ),
        ])
    func firstSeenAtShape(customer: String, message: String) throws {
        let served = try Served()
        let answer = Self.create(served, Self.body(customer: customer))
        #expect(answer.status == 400, "\(answer.body)")
        #expect((try answer.json()["errorMessage"] as? String)?.hasPrefix(message) == true, "\(answer.body)")
    }

    @Test(
        "identitySignals without firstSeenAt, and lower-case t and z, are taken",
        arguments: [
            #"{"id": "c", "identitySignals": {}}"#,
            #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-01-01t00:00:00z"}}"#,
            #"{"id": "c", "identitySignals": {"firstSeenAt": "2021-01-01T00:00:00-05:30"}}"#,
        ])
    func firstSeenAtTaken(customer: String) throws {
        let served = try Served()
        #expect(Self.create(served, Self.body(customer: customer)).status == 201)
    }
}
