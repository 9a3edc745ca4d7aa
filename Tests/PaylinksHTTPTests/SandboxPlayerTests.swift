import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import PaylinksSandbox
import Testing

/// What Create Checkout Session holds a player to: `customer.identitySignals.firstSeenAt`
/// in the past by the sandbox's clock, and the list of blocked players, which the control
/// API changes and the journal keeps.
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
                == "customer.identitySignals.firstSeenAt must be a past date: 2026-12-01T10:00:01.000Z is not before "
                + "the sandbox's clock, 2026-12-01T10:00:00.000Z; send when the player was first seen, such as the account's "
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

    /// The 403 of Create Checkout Session's reference, the words exact, written compact.
    static let blockedBody =
        #"{"message":"Blocked player: this player has been blocked. See the blocked player list in the dashboard for more info."}"#

    @Test("a blocked player's session is 403 with the reference's body, exactly; their earlier sessions stay")
    func blocked() throws {
        let served = try Served()
        let (_, earlier) = try Service.create(served.service)
        let blocked = served.control("/control/v1/blocked-players", #"{"id": "cust_98765"}"#)
        #expect(blocked.status == 201, "\(blocked.body)")
        #expect(blocked.body == #"{"blockedPlayers":["cust_98765"]}"#)
        let held = served.sandbox.sessionCount
        let refused = Self.create(served, Self.body())
        #expect(refused.status == 403)
        #expect(served.sandbox.sessionCount == held, "no session exists for a refused player")
        #expect(refused.body == Self.blockedBody)
        #expect(
            served.log.lines.contains(
                "warning: POST /checkout/v1/session refused: the player 'cust_98765' is blocked (--block-player or the "
                    + "control API); DELETE /control/v1/blocked-players/cust_98765 unblocks them"),
            "\(served.log.lines)")
        // Said once: the answer's own words are not logged besides.
        #expect(served.log.lines.filter { $0.hasPrefix("warning: POST /checkout/v1/session refused") }.count == 1)
        // The session made before the block goes on: the player still pays for it.
        #expect(try served.state(earlier) == "created")
        #expect(served.control("/control/v1/sessions/\(earlier)/complete", #"{"choice": "pay"}"#).status == 200)
        // Another player is not refused; a malformed body is 400 whoever the player is.
        #expect(Self.create(served, Self.body(customer: #"{"id": "someone_else"}"#)).status == 201)
        #expect(Self.create(served, Self.body(customer: #"{"id": "cust_98765", "email": 1}"#)).status == 400)
        // No token is 401 before the player is looked at.
        let anonymous = Service.send(
            served.service, .post, "/checkout/v1/session", body: Self.body(),
            headers: [HTTPHeader("Content-Type", "application/json")])
        #expect(anonymous.status == 401)
        // Unblocked, the player checks out again.
        let list = Service.send(served.service, .get, "/control/v1/blocked-players")
        #expect(list.body == #"{"blockedPlayers":["cust_98765"]}"#)
        let unblocked = Service.send(served.service, .delete, "/control/v1/blocked-players/cust_98765")
        #expect(unblocked.status == 200)
        #expect(unblocked.body == #"{"blockedPlayers":[]}"#)
        #expect(Self.create(served, Self.body()).status == 201)
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/cust_98765").status == 404)
    }

    @Test("the control API takes an id with any characters, percent-encoded in the path, and refuses a bad body")
    func blockControl() throws {
        let served = try Served()
        #expect(served.control("/control/v1/blocked-players", #"{"id": "a b/ü"}"#).status == 201)
        #expect(served.control("/control/v1/blocked-players", #"{"id": "a b/ü"}"#).status == 200)
        #expect(Self.create(served, Self.body(customer: #"{"id": "a b/ü"}"#)).status == 403)
        #expect(
            served.log.lines.contains {
                $0.hasSuffix("DELETE /control/v1/blocked-players/a%20b%2F%C3%BC unblocks them")
            })
        for (body, message) in [
            ("[]", #"the body is an array, not a JSON object; send {"id": "PLAYER"}, the player's customer.id"#),
            (#"{"id": ""}"#, "id is empty; give the player's customer.id"),
            (#"{"id": 7}"#, "id must be a string, not a number"),
            (#"{"player": "a"}"#, "unknown key 'player'"),
        ] {
            let answer = served.control("/control/v1/blocked-players", body)
            #expect(answer.status == 400)
            #expect((try answer.json()["errorMessage"] as? String)?.hasPrefix(message) == true, "\(answer.body)")
        }
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/a%20b%2F%C3%BC").status == 200)
        #expect(Service.send(served.service, .get, "/control/v1/blocked-players").body == #"{"blockedPlayers":[]}"#)
    }

    @Test("ids are told apart byte for byte: josé written whole is not josé written as e and its accent")
    func blockedByteForByte() throws {
        let whole = "jos\u{e9}"
        let decomposed = "jose\u{301}"
        // Swift's == calls the two equal; customer.id is compared by its bytes.
        #expect(whole == decomposed && Array(whole.utf8) != Array(decomposed.utf8))
        let served = try Served()
        #expect(served.control("/control/v1/blocked-players", #"{"id": "\#(whole)"}"#).status == 201)
        let other = Self.create(served, Self.body(customer: #"{"id": "\#(decomposed)"}"#))
        #expect(other.status == 201, "\(other.body)")
        #expect(Self.create(served, Self.body(customer: #"{"id": "\#(whole)"}"#)).status == 403)
        let second = served.control("/control/v1/blocked-players", #"{"id": "\#(decomposed)"}"#)
        #expect(second.status == 201, "\(second.body)")
        let listed = try #require(try second.json()["blockedPlayers"] as? [String])
        #expect(listed.map { Array($0.utf8) } == [Array(whole.utf8), Array(decomposed.utf8)])
        #expect(Self.create(served, Self.body(customer: #"{"id": "\#(decomposed)"}"#)).status == 403)
        // Unblocking the one written as e and its accent leaves the other blocked.
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/jose%CC%81").status == 200)
        #expect(served.sandbox.blockedPlayers.map { Array($0.utf8) } == [Array(whole.utf8)])
    }

    @Test("the list is kept by the journal, read back at a start, exported, and a reset leaves --block-player's")
    func blockedKept() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let served = try Served(journal: journal)
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_1"}"#).status == 201)
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_2"}"#).status == 201)
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/cust_1").status == 200)
        let restarted = try Served(journal: journal, restoring: true)
        #expect(restarted.sandbox.blockedPlayers == ["cust_2"])
        let export = Service.send(restarted.service, .get, "/control/v1/export").body
        #expect(export.contains(#"{"blockedPlayers":{"ids":["cust_2"]}}"#), "\(export)")
        // A refused write leaves the list as it was.
        journal.refusal = "disk full"
        #expect(restarted.control("/control/v1/blocked-players", #"{"id": "cust_3"}"#).status == 503)
        #expect(restarted.sandbox.blockedPlayers == ["cust_2"])
        journal.refusal = nil
        #expect(restarted.control("/control/v1/reset").status == 200)
        #expect(restarted.sandbox.blockedPlayers == [])
        #expect(journal.records.allSatisfy { if case .blockedPlayers = $0 { false } else { true } })
    }

    @Test("a block or an unblock the journal cannot keep is 503 and changes nothing, then or after a restart")
    func blockNotKept() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let served = try Served(journal: journal)
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_1"}"#).status == 201)
        journal.refusal = "disk full"
        let blocked = served.control("/control/v1/blocked-players", #"{"id": "cust_2"}"#)
        #expect(blocked.status == 503)
        #expect(
            try blocked.json()["errorMessage"] as? String
                == "the sandbox could not keep the change on disk (disk full), so nothing changed; free the disk, "
                + "then try again")
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/cust_1").status == 503)
        #expect(served.sandbox.blockedPlayers == ["cust_1"])
        #expect(
            Service.send(served.service, .get, "/control/v1/blocked-players").body == #"{"blockedPlayers":["cust_1"]}"#)
        #expect(
            !served.log.lines.contains { $0.hasPrefix("player 'cust_2'") || $0.hasPrefix("player 'cust_1' unblocked") })
        // The next change that is kept carries nothing of the refused ones.
        journal.refusal = nil
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_3"}"#).status == 201)
        let restarted = try Served(journal: journal, restoring: true)
        #expect(restarted.sandbox.blockedPlayers == ["cust_1", "cust_3"])
    }

    @Test("a move of a virtual clock while the disk refuses writes is refused 503 before anything moves")
    func moveNotKept() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let served = try Served(journal: journal)
        let (_, purchaseId) = try Service.create(served.service)
        journal.refusal = "disk full"
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_2"}"#).status == 503)
        let moved = served.advance("PT2H")
        #expect(moved.status == 503, "\(moved.body)")
        #expect(moved.body.contains("so nothing changed"))
        let clock = Service.send(served.service, .get, "/control/v1/clock")
        #expect(try clock.json()["now"] as? String == "2026-12-01T10:00:00.000Z", "\(clock.body)")
        #expect(try served.state(purchaseId) == "created", "no timer fired: the session did not expire")
        // Once the disk takes writes again, the clock moves and is kept.
        journal.refusal = nil
        #expect(served.advance("PT2H").status == 200)
        #expect(try served.state(purchaseId) == "payment_canceled")
        let restarted = try Served(journal: journal, restoring: true)
        #expect(restarted.sandbox.now == SandboxClockTests.start + 7_200_000)
    }

    /// A journal rewritten at every change it keeps, from what the sandbox then holds, as a
    /// file journal is once it has grown.
    final class RewrittenJournal: SandboxJournal {
        let location = "memory"
        let recordsRead = 0
        let warnings: [String] = []
        var onWarning: (String) -> Void = { _ in }
        /// The blocked players the last rewrite held.
        var rewritten: [String]?

        func keep(_ changed: SandboxJournalChange, live: () -> SandboxJournalContents) -> String? {
            startRewrite(live())
            return nil
        }

        func startRewrite(_ held: SandboxJournalContents) { rewritten = held.blocked }

        func finishRewrite(waiting: Bool) {}

        func replace(with held: SandboxJournalContents) -> String? { nil }
    }

    @Test("a rewrite that a block or an unblock makes due holds the list as the change left it")
    func rewrittenAtABlock() throws {
        let journal = RewrittenJournal()
        let served = try Served(journal: journal)
        #expect(served.control("/control/v1/blocked-players", #"{"id": "cust_1"}"#).status == 201)
        #expect(journal.rewritten == ["cust_1"])
        #expect(Service.send(served.service, .delete, "/control/v1/blocked-players/cust_1").status == 200)
        #expect(journal.rewritten == [])
    }

    @Test("the dashboard lists the blocked players")
    func dashboard() throws {
        let served = try Served()
        #expect(!Service.send(served.service, .get, "/").body.contains("Blocked players"))
        #expect(served.control("/control/v1/blocked-players", #"{"id": "<cust>"}"#).status == 201)
        let page = Service.send(served.service, .get, "/").body
        #expect(page.contains("<h2>Blocked players</h2>"))
        #expect(page.contains(#"<li class="mono">&lt;cust&gt;</li>"#), "\(page)")
    }

    /// The device objects of the V2 events the game's server got for a checkout on the
    /// checkout page, sent with `userAgent` when given.
    static func devices(userAgent: String?) async throws -> [String] {
        let game = Service.GameServer.granting()
        let served = try Served(game: game)
        let (token, purchaseId) = try Service.create(served.service)
        var headers = [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")]
        if let userAgent { headers.append(HTTPHeader("User-Agent", userAgent)) }
        let chosen = Service.send(
            served.service, .post, "/checkout/\(token)",
            body: "choice=pay&paymentMethod=Visa&formToken=\(Service.formToken)",
            headers: headers)
        #expect(chosen.status == 303, "\(chosen.body)")
        #expect(try Service.tick(served.service) { try served.state(purchaseId) == "charge_succeed" })
        #expect(served.settle())
        let events = await game.requests(after: served.service).filter { $0.url.description.hasSuffix("/events") }
        #expect(events.count == 3, "order.created, order.payment.resolved, order.completed")
        return try events.map { request in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            let device = try #require(body["device"] as? [String: String], "\(body)")
            return device.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }
    }

    @Test("a payment through the control API names its device as --device does, and complete refuses a field it lacks")
    func deviceFromControl() async throws {
        let game = Service.GameServer.granting()
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        let path = "/control/v1/sessions/\(purchaseId)/complete"
        let unknown = served.control(path, #"{"choice": "pay", "bogus": 1}"#)
        #expect(unknown.status == 400)
        #expect(
            unknown.body.contains("'bogus' is not a field of complete; it takes choice, paymentMethod, resolve, device")
        )
        let wrong = served.control(path, #"{"choice": "pay", "device": "nokia"}"#)
        #expect(wrong.status == 400)
        #expect(wrong.body.contains("device"), "\(wrong.body)")
        #expect(try served.state(purchaseId) == "created", "a refused complete changes nothing")
        #expect(served.control(path, #"{"choice": "pay", "device": "android"}"#).status == 200)
        #expect(try Service.tick(served.service) { try served.state(purchaseId) == "charge_succeed" })
        #expect(served.settle())
        let events = await game.requests(after: served.service).filter { $0.url.description.hasSuffix("/events") }
        #expect(events.count == 3)
        for request in events {
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            let device = try #require(body["device"] as? [String: String], "\(body)")
            #expect(device["deviceModel"] == "Pixel 8" && device["osType"] == "Android")
        }
    }

    @Test("the V2 events of a checkout carry the device its page was asked from, by the browser's User-Agent")
    func deviceFromUserAgent() async throws {
        let iPhone =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "Version/17.5 Mobile/15E148 Safari/604.1"
        let devices = try await Self.devices(userAgent: iPhone)
        #expect(
            devices
                == Array(
                    repeating:
                        "browserType=Safari,browserVersion=17.5,deviceModel=iPhone,osType=iOS,osVersion=17.5,platform=mobile",
                    count: 3))
        // A part that is not 1 to 64 bytes of printable ASCII is left out, never sent empty.
        let long = try await Self.devices(
            userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS \(String(repeating: "1", count: 600)) like Mac OS X)")
        #expect(long.count == 3)
        #expect(long.allSatisfy { $0.contains("osType=iOS") && !$0.contains("osVersion") }, "\(long)")
        // A client that names no known system (a script) gets the seed's device, the same on every event.
        let seeded = try await Self.devices(userAgent: "curl/8.7.1")
        #expect(Set(seeded).count == 1)
        #expect(seeded.first?.contains("platform=") == true)
        #expect(try await Self.devices(userAgent: nil) == seeded)
    }
}
