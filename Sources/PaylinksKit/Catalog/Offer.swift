/// An offer in the game's store: what a checkout session sells.
public struct Offer: Equatable, Sendable {
    /// The offer's SKU: "starter_pack_001".
    public var sku: String
    /// The offer's display name: "Starter Pack".
    public var name: String
    /// The offer's price tier in US dollars: "4.99". It is always one of the catalog's tiers.
    public var basePriceInUSD: String
    /// What the offer holds.
    public var items: [OrderResponseModel.Item]

    /// Creates an offer.
    public init(sku: String, name: String, basePriceInUSD: String, items: [OrderResponseModel.Item]) {
        self.sku = sku
        self.name = name
        self.basePriceInUSD = basePriceInUSD
        self.items = items
    }
}
