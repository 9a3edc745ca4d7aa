import PaylinksAppcharge
import PaylinksKit
import Testing

/// The template a load fills in for each predicted order's events: proven on two orders,
/// it gives any further order's exact events, and it is refused when orders differ in
/// anything but their identifiers and times.
@Suite("Order events template")
struct OrderEventsTemplateTests {
    typealias Events = [(event: OrderEvent, milliseconds: Int)]
    static let seed: UInt64 = 3

    /// The events of checkout `index` as Appcharge's side builds them, the first at
    /// `milliseconds` (paid then, in whole seconds), on `device` (the seed's when nil), for the player `email`.
    static func lived(
        _ index: Int, at milliseconds: Int, version: OrderEvent.Version = .v2, device: OrderDevice? = nil,
        email: String? = nil
    ) -> Events {
        let identifiers = CheckoutIdentifiers(seed: seed, index: index)
        var order = OrderLifeTests.order
        order.sessionToken = identifiers.sessionToken
        order.purchaseId = identifiers.purchaseId
        order.orderId = identifiers.orderId
        var subject = OrderEvent.Subject(
            order: order, money: OrderLifeTests.money, email: email,
            transactions: [OrderTransaction(.paid, amount: 549, milliseconds: milliseconds / 1000 * 1000, number: 0)])
        subject.device = device ?? .seeded(seed: seed, purchaseId: order.purchaseId)
        let times: [(OrderEvent.Name, Int)] = [
            (.created, milliseconds), (.paymentSucceeded, milliseconds), (.completed, milliseconds + 18_590),
        ]
        return times.enumerated().map { sequence, happened in
            let (name, at) = happened
            let event = OrderEvent(
                name, version: version, subject: subject, milliseconds: at, seed: seed, sequence: sequence)
            return (event, at)
        }
    }

    static func same(_ filled: Events, _ lived: Events) -> Bool {
        filled.count == lived.count
            && zip(filled, lived).allSatisfy { filled, lived in
                filled.milliseconds == lived.milliseconds && filled.event.name == lived.event.name
                    && filled.event.version == lived.event.version && filled.event.eventId == lived.event.eventId
                    && filled.event.body == lived.event.body
            }
    }

    @Test(
        "proven on two orders, the template gives a later order's events byte for byte, in V2 and V1",
        arguments: [
            OrderEvent.Version.v2, .v1,
        ])
    func fillsLaterOrders(version: OrderEvent.Version) throws {
        let step = 21_377
        let template = try #require(
            OrderEventsTemplate(
                first: (4, Self.lived(4, at: 1_718_182_330_590, version: version)),
                second: (5, Self.lived(5, at: 1_718_182_330_590 + step, version: version)), seed: Self.seed,
                seededDevice: true))
        for index in [6, 9, 250] {
            let at = 1_718_182_330_590 + (index - 4) * step
            #expect(Self.same(template.events(index: index, at: at), Self.lived(index, at: at, version: version)))
        }
    }

    @Test("a device the options set stays as it is in every order's events")
    func fixedDevice() throws {
        let android = try #require(OrderDevice.preset("android"))
        let template = try #require(
            OrderEventsTemplate(
                first: (0, Self.lived(0, at: 1_000_250, device: android)),
                second: (1, Self.lived(1, at: 1_019_840, device: android)), seed: Self.seed, seededDevice: false))
        #expect(Self.same(template.events(index: 7, at: 1_078_880), Self.lived(7, at: 1_078_880, device: android)))
    }

    @Test("orders that differ in anything but identifiers and times fail the proof: the load lives every order")
    func refusesOtherDifferences() {
        // The second player gave an email the first did not.
        #expect(
            OrderEventsTemplate(
                first: (0, Self.lived(0, at: 1_000_250)),
                second: (1, Self.lived(1, at: 1_019_840, email: "player@example.com")), seed: Self.seed,
                seededDevice: true) == nil)
        // The second player checked out on another device than the first, set rather than seeded.
        #expect(
            OrderEventsTemplate(
                first: (0, Self.lived(0, at: 1_000_250, device: OrderDevice.preset("android"))),
                second: (1, Self.lived(1, at: 1_019_840, device: OrderDevice.preset("ios"))), seed: Self.seed,
                seededDevice: false) == nil)
        // The second order's events are not that order's: another index.
        #expect(
            OrderEventsTemplate(
                first: (0, Self.lived(0, at: 1_000_250)), second: (1, Self.lived(2, at: 1_019_840)), seed: Self.seed,
                seededDevice: true) == nil)
    }
}
