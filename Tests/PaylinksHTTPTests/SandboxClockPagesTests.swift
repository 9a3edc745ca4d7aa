import Foundation
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox
import Testing

/// The sandbox's clock on its pages: the dashboard shows it and moves a virtual one, the
/// checkout page leaves a payment pending to resolve later, and a pending order's page
/// resolves it, now or later; each as a browser sends it, served as `serve` serves it.
@Suite("Sandbox clock pages")
struct SandboxClockPagesTests {
    typealias Service = SandboxServiceTests

    /// June 12, 2024, 08:51:52 UTC, where the virtual clock starts.
    static let start = 1_718_182_312_000
    static let startText = "2024-06-12T08:51:52.000Z"
    static let formType = [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")]

    /// A service of a sandbox on a virtual clock at ``start``, or on the wall clock.
    static func service(virtual: Bool = true) throws -> SandboxService {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.formToken = Service.formToken
        let clock: SandboxClock = virtual ? .virtual(at: start) : .reading { start }
        return try Service.service(Sandbox(catalog: .builtIn, settings: settings, clock: clock))
    }

    /// A form sent to `path` as a browser sends it, with the form token.
    static func form(_ service: SandboxService, _ path: String, _ fields: String) -> Service.Answer {
        Service.send(service, .post, path, body: "\(fields)&formToken=\(Service.formToken)", headers: formType)
    }

    /// The page at `location`, a path and a query.
    static func page(_ service: SandboxService, _ location: String?) -> String {
        let parts = (location ?? "").split(separator: "?", maxSplits: 1).map(String.init)
        return Service.send(service, .get, parts.first ?? "", query: parts.count > 1 ? parts[1] : "").body
    }

    /// The clock as the control API says it.
    static func now(_ service: SandboxService) throws -> String? {
        try Service.send(service, .get, "/control/v1/clock").json()["now"] as? String
    }

    /// A session's state as the control API shows it.
    static func session(_ service: SandboxService, _ purchaseId: String) throws -> [String: Any] {
        try Service.send(service, .get, "/control/v1/sessions/\(purchaseId)").json()
    }

    @Test("the dashboard shows a virtual clock and its forms; advancing it answers once it moved, then shows the move")
    func advance() throws {
        let service = try Self.service()
        defer { service.finish() }
        let home = Self.page(service, "/")
        #expect(home.contains("virtual") && home.contains(Self.startText))
        #expect(home.contains(#"<form method="post" action="/clock">"#))
        #expect(home.contains(#"<input type="hidden" name="formToken" value="form-token-1">"#))
        for quick in ["PT15S", "PT15M", "PT1H", "P1D"] {
            #expect(home.contains(#"name="advance" value="\#(quick)""#), "\(quick)")
        }
        let (token, purchaseId) = try Service.create(service)
        let chosen = Self.form(service, "/checkout/\(token)", "paymentMethod=Visa&resolve=succeeded&minutes=5")
        #expect(chosen.status == 303)
        let moved = Self.form(service, "/clock", "advance=PT15M")
        #expect(moved.status == 303, "\(moved.body)")
        let location = try #require(moved.header("Location"))
        #expect(location.hasPrefix("/?said="))
        #expect(try Self.now(service) == "2024-06-12T09:06:52.000Z")
        let after = Self.page(service, location)
        #expect(after.contains(#"<p class="said">"#), "\(after)")
        #expect(after.contains("2024-06-12T09:06:52.000Z"))
        #expect(after.contains("2024-06-12T08:56:52.000Z"), "the resolution's time, among what fired")
        #expect(after.contains("resolution") && after.contains(purchaseId))
        #expect(try Self.session(service, purchaseId)["state"] as? String == "charge_succeed")
        let quick = Self.form(service, "/clock", "advance=P1D")
        #expect(quick.status == 303)
        #expect(try Self.now(service) == "2024-06-13T09:06:52.000Z")
    }

    @Test(
        "advancing by what is no forward duration says why on the dashboard, and the clock stays",
        arguments: ["15M", "PT0S", "-PT1M", "", "P1Y"])
    func badAdvance(text: String) throws {
        let service = try Self.service()
        defer { service.finish() }
        let answer = Self.form(service, "/clock", "advance=\(text)")
        #expect(answer.status == 303)
        let location = try #require(answer.header("Location"))
        #expect(location.hasPrefix("/?said="))
        #expect(Self.page(service, location).contains(#"<p class="said problem">"#))
        #expect(try Self.now(service) == Self.startText)
    }

    @Test("on the wall clock the dashboard has no form and says the clock moves by itself; a form sent is refused")
    func wallClock() throws {
        let service = try Self.service(virtual: false)
        defer { service.finish() }
        let home = Self.page(service, "/")
        #expect(home.contains("wall") && home.contains("moves by itself") && home.contains(Self.startText))
        #expect(!home.contains(#"action="/clock""#))
        let answer = Self.form(service, "/clock", "advance=PT15M")
        let location = try #require(answer.header("Location"))
        #expect(Self.page(service, location).contains(#"<p class="said problem">"#))
        #expect(try Self.now(service) == Self.startText)
    }

    @Test(
        "the checkout page leaves a payment pending and schedules it to be approved or declined after N minutes",
        arguments: [("succeeded", "charge_succeed"), ("failed", "payment_failed")])
    func pendingThen(outcome: String, state: String) throws {
        let service = try Self.service()
        defer { service.finish() }
        let (token, purchaseId) = try Service.create(service)
        let page = Self.page(service, "/checkout/\(token)")
        #expect(page.contains(#"name="resolve" value="succeeded""#) && page.contains(#"name="resolve" value="failed""#))
        #expect(page.contains(#"<input type="number" name="minutes""#) && page.contains(#"value="5""#))
        let chosen = Self.form(service, "/checkout/\(token)", "paymentMethod=Visa&resolve=\(outcome)&minutes=7")
        #expect(chosen.status == 303)
        let session = try Self.session(service, purchaseId)
        #expect(session["state"] as? String == "payment_pending")
        let resolution = try #require(session["resolution"] as? [String: Any])
        #expect(resolution["outcome"] as? String == outcome)
        #expect(resolution["at"] as? String == "2024-06-12T08:58:52.000Z")
        #expect(Self.page(service, "/checkout/\(token)").contains("2024-06-12T08:58:52.000Z"))
        #expect(Service.control(service, "/control/v1/clock", #"{"advance": "PT7M"}"#).status == 200)
        #expect(try Self.session(service, purchaseId)["state"] as? String == state)
    }

    @Test(
        "minutes that are no whole number above zero are refused on the checkout page, and the session stays open",
        arguments: ["0", "-5", "abc", "", "2.5"])
    func badMinutes(minutes: String) throws {
        let service = try Self.service()
        defer { service.finish() }
        let (token, purchaseId) = try Service.create(service)
        let answer = Self.form(service, "/checkout/\(token)", "paymentMethod=Visa&resolve=succeeded&minutes=\(minutes)")
        #expect(answer.status == 400)
        #expect(answer.body.contains("minutes"))
        #expect(try Self.session(service, purchaseId)["state"] as? String == "created")
    }

    @Test("the control API's complete schedules a pending payment's resolution too")
    func completeResolve() throws {
        let service = try Self.service()
        defer { service.finish() }
        let (_, purchaseId) = try Service.create(service)
        let bad = Service.control(
            service, "/control/v1/sessions/\(purchaseId)/complete",
            #"{"choice": "pay", "resolve": {"outcome": "succeeded", "after": "PT5M"}}"#)
        #expect(bad.status == 400 && bad.body.contains("pending"))
        let zero = Service.control(
            service, "/control/v1/sessions/\(purchaseId)/complete",
            #"{"choice": "pending", "resolve": {"outcome": "succeeded", "after": "PT0S"}}"#)
        #expect(zero.status == 400)
        for resolve in [#""later""#, #"{"outcome": "won", "after": "PT5M"}"#, #"{"outcome": "failed"}"#] {
            let refused = Service.control(
                service, "/control/v1/sessions/\(purchaseId)/complete",
                #"{"choice": "pending", "resolve": \#(resolve)}"#)
            #expect(refused.status == 400 && refused.body.contains("PT5M"), "\(resolve): \(refused.body)")
        }
        #expect(try Self.session(service, purchaseId)["state"] as? String == "created")
        let answer = Service.control(
            service, "/control/v1/sessions/\(purchaseId)/complete",
            #"{"choice": "pending", "resolve": {"outcome": "failed", "after": "PT5M"}}"#)
        #expect(answer.status == 200, "\(answer.body)")
        let resolution = try #require(try answer.json()["resolution"] as? [String: Any])
        #expect(resolution["outcome"] as? String == "failed")
        #expect(resolution["at"] as? String == "2024-06-12T08:56:52.000Z")
    }

    @Test("a pending order's page resolves it now or after N minutes, and shows a scheduled resolution with its time")
    func orderResolve() throws {
        let service = try Self.service()
        defer { service.finish() }
        let (_, purchaseId) = try Service.create(service)
        #expect(
            Service.control(service, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pending"}"#).status
                == 200)
        let page = Self.page(service, "/orders/\(purchaseId)")
        #expect(page.contains(#"<form method="post" action="/orders/\#(purchaseId)/resolve">"#))
        for minutes in ["0", "-1", "x"] {
            let refused = Self.form(service, "/orders/\(purchaseId)/resolve", "outcome=succeeded&minutes=\(minutes)")
            #expect(Self.page(service, refused.header("Location")).contains(#"<p class="said problem">"#), "\(minutes)")
        }
        #expect(try Self.session(service, purchaseId)["resolution"] == nil)
        let later = Self.form(service, "/orders/\(purchaseId)/resolve", "outcome=failed&minutes=10")
        #expect(later.status == 303)
        let number = try #require(later.header("Location")?.split(separator: "=").last.map(String.init))
        #expect(!Self.page(service, "/?said=\(number)").contains(#"<p class="said"#), "an order's notice is its own")
        let scheduled = Self.page(service, later.header("Location"))
        #expect(scheduled.contains(#"<p class="said">"#))
        #expect(scheduled.contains("2024-06-12T09:01:52.000Z"), "the scheduled resolution's time")
        #expect(try Self.session(service, purchaseId)["state"] as? String == "payment_pending")
        let now = Self.form(service, "/orders/\(purchaseId)/resolve", "outcome=succeeded")
        #expect(Self.page(service, now.header("Location")).contains(#"<p class="said">"#))
        #expect(try Self.session(service, purchaseId)["state"] as? String == "charge_succeed")
        let again = Self.form(service, "/orders/\(purchaseId)/resolve", "outcome=failed")
        #expect(Self.page(service, again.header("Location")).contains(#"<p class="said problem">"#))
        #expect(!Self.page(service, "/orders/\(purchaseId)").contains("/resolve\">"), "no resolve form once paid")
        #expect(try Self.session(service, purchaseId)["state"] as? String == "charge_succeed")
    }
}
