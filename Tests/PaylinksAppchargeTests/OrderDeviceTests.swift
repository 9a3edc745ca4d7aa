import Foundation
import PaylinksAppcharge
import PaylinksJSON
import PaylinksKit
import Testing

/// The Events V2 `device` object: on every V2 order event, from the player's browser, the
/// command line or the seed; never on V1 or the award.
@Suite("Order device")
struct OrderDeviceTests {
    typealias Sessions = CheckoutSessionsTests

    /// A session of the store, paid on `device` (from the seed when nil); its events.
    static func paid(device: OrderDevice?, seed: UInt64 = 1) throws -> [(OrderEvent.Name, CheckoutSessions.Session)] {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: seed, lifetime: 1_000, limit: 10)
        let (session, _) = try sessions.create(SessionRequest(Array(Sessions.body.utf8)), now: 0)
        let (_, events) = sessions.choose(.pay, paymentMethod: "Visa", for: session, now: 0, device: device)
        return events.compactMap {
            if case .order(let name, let session, _) = $0 { return (name, session) }
            return nil
        }
    }

    /// The `device` member of an event's body, compact JSON; nil when it has none.
    static func device(_ event: OrderEvent) throws -> String? {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(event.body)) as? [String: Any])
        guard let device = body["device"] else { return nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: device, options: .sortedKeys), as: UTF8.self)
    }

    @Test("every V2 order event carries the device the player chose on; V1 events and the award do not")
    func onV2Only() throws {
        let android = try #require(OrderDevice.preset("android"))
        let happened = try Self.paid(device: android)
        #expect(happened.map(\.0) == [.created, .paymentSucceeded])
        for (name, session) in happened {
            let v2 = OrderEvent(name, of: session, version: .v2, milliseconds: 0, seed: 1, sequence: 0)
            #expect(
                try Self.device(v2)
                    == #"{"browserType":"Chrome","browserVersion":"126.0.6478.122","deviceModel":"Pixel 8","osType":"Android","osVersion":"14","platform":"mobile"}"#
            )
            #expect(
                String(decoding: v2.body, as: UTF8.self).contains(#""geolocation":{"countryCode2":"US"},"device":{"#))
            let v1 = OrderEvent(name, of: session, version: .v1, milliseconds: 0, seed: 1, sequence: 0)
            #expect(try Self.device(v1) == nil)
            #expect(!String(decoding: session.award.body, as: UTF8.self).contains("device"))
        }
    }

    @Test("without a device the seed picks one: the same for the same seed, another for some other seed")
    func seeded() throws {
        let session = try #require(try Self.paid(device: nil).first?.1)
        #expect(session.device == nil)
        let devices = (0..<20).map { OrderDevice.seeded(seed: $0, purchaseId: session.purchaseId) }
        #expect(Set(devices.map { "\($0)" }).count > 3)
        #expect(OrderDevice.seeded(seed: 5, purchaseId: session.purchaseId) == devices[5])
        let event = OrderEvent(.created, of: session, version: .v2, milliseconds: 0, seed: 5, sequence: 0)
        var writer = JSONWriter()
        devices[5].write(to: &writer)
        #expect(
            String(decoding: event.body, as: UTF8.self).contains(
                #""device":\#(String(decoding: writer.bytes, as: UTF8.self))"#))
    }

    @Test("a session's record keeps its device, and reads it back")
    func recordKeepsIt() throws {
        let web = try #require(OrderDevice.preset("web"))
        let session = try #require(try Self.paid(device: web).last?.1)
        let record = String(decoding: session.record, as: UTF8.self)
        #expect(
            record.contains(
                #""device":{"platform":"desktop","osType":"Windows","osVersion":"10","browserType":"Chrome","browserVersion":"126.0.6478.127"}"#
            ))
        let back = try CheckoutSessions.Session(record: try JSONParser.parse(session.record))
        #expect(back.device == web)
    }

    @Test(
        "a browser's User-Agent names the device; one that names no known system names none",
        arguments: [
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "mobile iPhone iOS 17.5 Safari 17.5"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36",
                "mobile Pixel 8 Android 14 Chrome 126.0.6478.122"
            ),
            (
                "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
                "mobile - Android 10 Chrome 126.0.0.0"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87",
                "desktop - Windows 10.0 Edge 126.0.2592.87"
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
                "desktop - macOS 10.15.7 Safari 17.5"
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
                "desktop - Linux - Firefox 127.0"
            ),
            ("curl/8.7.1", "none"),
            ("", "none"),
        ])
    func userAgent(agent: String, expected: String) {
        let shown = OrderDevice(userAgent: agent).map { device in
            device.fields.map { $0.value ?? "-" }.joined(separator: " ")
        }
        #expect(shown ?? "none" == expected)
    }

    @Test(
        "a part of a User-Agent that is not 1 to 64 bytes of printable ASCII is left out of the device",
        arguments: [
            ("Mozilla/5.0 (Windows NT x\u{01}\u{7f}y) Edg/1", "osVersion", "none"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS \(String(repeating: "1", count: 600)) like Mac OS X)", "osVersion",
                "mobile iPhone iOS - - -"
            ),
        ])
    func userAgentPartLeftOut(agent: String, field: String, expected: String) {
        let device = OrderDevice(userAgent: agent)
        let value = device?.fields.first { $0.key == field }?.value
        #expect(value == nil, "\(field) is \(String(reflecting: value?.prefix(80)))")
        let shown = device.map { $0.fields.map { $0.value ?? "-" }.joined(separator: " ") }
        #expect(shown ?? "none" == expected)
    }

    @Test("an Android agent whose model is only its build names no model, never an empty one")
    func androidWithoutModel() {
        let device = OrderDevice(userAgent: "Mozilla/5.0 (Linux; Android 14;  Build/UP1A)")
        #expect(device?.osType == "Android")
        #expect(device?.osVersion == "14")
        #expect(device?.deviceModel == nil, "neither empty nor the build")
    }

    @Test(
        "--device takes a preset or KEY=VALUE pairs, and says what is wrong with anything else",
        arguments: [
            ("ios", "mobile iPhone15,2 iOS 17.5 Safari 17.5"),
            ("Android", "mobile Pixel 8 Android 14 Chrome 126.0.6478.122"),
            ("osType=iOS,osVersion=18.0", "- - iOS 18.0 - -"),
            (
                "ipohne",
                "takes ios, android, web or KEY=VALUE,... with keys platform, deviceModel, osType, osVersion, browserType, browserVersion, not 'ipohne'"
            ),
            ("os=iOS", "has no key 'os'; keys: platform, deviceModel, osType, osVersion, browserType, browserVersion"),
            ("osType=iOS,osType=Android", "gives osType twice; give it once"),
            ("osType=", "osType takes a value of 1 to 100 bytes, not ''"),
            (
                "osType=iOS,",
                "takes ios, android, web or KEY=VALUE,... with keys platform, deviceModel, osType, osVersion, browserType, browserVersion; '' has no =VALUE"
            ),
        ])
    func parse(text: String, expected: String) {
        do {
            let device = try OrderDevice.parse(text)
            #expect(device.fields.map { $0.value ?? "-" }.joined(separator: " ") == expected)
        } catch {
            #expect(error.reason == expected)
        }
    }
}
