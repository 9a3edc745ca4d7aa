import PaylinksAppcharge
import PaylinksKit

/// The orders an audit sends: each a real checkout of the simulated SDK, seeded so that
/// every run has fresh ids.
@MainActor
final class AuditOrders {
    private let simulator: PaymentLinksSimulator
    private let clock: () -> Int

    init(seed: UInt64, clock: @escaping () -> Int) {
        simulator = PaymentLinksSimulator(seed: seed)
        self.clock = clock
    }

    /// The name of every order's offer and items unless a case names them: ASCII letters
    /// alone, no space, no `/`, nothing a JSON writer escapes, so that a verifier that
    /// mangles any of those fails only the case built to show it, never `valid`.
    static let plainName = "StarterPack"

    /// The money of an audit's order, at the $4.99 price point of `starter_pack_001`, under
    /// the built-in catalog's terms for its country.
    static func money(of order: OrderResponseModel) -> OrderMoney {
        OrderMoney(order: order, pricePoint: 499, catalog: .builtIn)
    }

    /// A paid order of `starter_pack_001` for `player`, its offer and items named
    /// `offerName`, else ``plainName``.
    func fresh(player: String = "audit_player", offerName: String? = nil) -> OrderResponseModel {
        let recorder = RecordingDelegate()
        if simulator.configuration == nil {
            simulator.initialize(
                configModel: ACConfigModel(checkoutPublicKey: "pk_audit", environment: "sandbox"),
                customerId: player, delegate: recorder)
        }
        simulator.delegate = recorder
        if let session = try? simulator.createCheckoutSession(offerSku: "starter_pack_001", customerId: player) {
            simulator.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
            if let link = simulator.pendingDeepLink { simulator.handleDeepLink(link) }
        }
        var order =
            recorder.callbacks.last?.order
            ?? OrderResponseModel(
                date: 0, sessionToken: "", offerName: Self.plainName, offerSku: "starter_pack_001",
                items: [OrderResponseModel.Item(name: "Gems", sku: "gem_01", quantity: "100")], price: 499,
                currency: "USD",
                customerId: player, customerCountry: "US", paymentMethodName: PlayerAction.defaultPaymentMethod,
                orderId: String(clock()), purchaseId: "pr_audit_\(clock())")
        let name = offerName ?? Self.plainName
        order.offerName = name
        order.items = order.items.map { item in
            var renamed = item
            renamed.name = name
            return renamed
        }
        return order
    }
}
