import PaylinksFixtures
import PaylinksKit

/// The body of a Create Checkout Session request, checked field by field as the
/// reference documents it.
struct SessionRequest {
    /// Why a body is refused: the field and what is wrong, in a sentence.
    struct Problem: Error {
        var message: String
    }

    var price: Int
    var currency: String
    var offerName: String
    var offerSku: String
    var pricePointMetadata: Int?
    var items: [OrderResponseModel.Item]
    var customerId: String
    var email: String?
    var country: String
    var metadata: [UInt8]?
    var redirectUrl: String?

    init(_ body: [UInt8]) throws(Problem) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw Problem(message: "the body is not JSON: \(error.reason) (line \(error.position.line))")
        }
        let top = try Self.object(root, "the body")
        let priceDetails = try Self.object(try Self.required(top, "priceDetails", in: ""), "priceDetails")
        price = try Self.integer(try Self.required(priceDetails, "price", in: "priceDetails."), "priceDetails.price")
        currency = try Self.string(
            try Self.required(priceDetails, "currency", in: "priceDetails."), "priceDetails.currency")
        guard CurrencyCodes.all.contains(currency) else {
            throw Problem(
                message: "priceDetails.currency '\(currency.prefix(12))' is not an ISO 4217 code, such as USD or EUR")
        }
        let offer = try Self.object(try Self.required(top, "offer", in: ""), "offer")
        offerName = try Self.string(try Self.required(offer, "name", in: "offer."), "offer.name")
        guard !offerName.isEmpty else { throw Problem(message: "offer.name is empty; give the offer's name") }
        offerSku = try Self.string(try Self.required(offer, "sku", in: "offer."), "offer.sku")
        guard !offerSku.isEmpty else { throw Problem(message: "offer.sku is empty; give the game's offer id") }
        pricePointMetadata = try offer["pricePointMetadata"].map { value throws(Problem) in
            try Self.integer(value, "offer.pricePointMetadata")
        }
        for name in ["displayName", "assetUrl", "description"] {
            if let value = offer[name] { _ = try Self.string(value, "offer.\(name)") }
        }
        items = []
        if let list = top["items"] {
            guard case .array(let elements) = list.kind else {
                throw Problem(message: "items must be an array of {name, sku, quantity}, not \(list.typeDescription)")
            }
            for (index, element) in elements.enumerated() {
                let path = "items[\(index)]"
                let item = try Self.object(element, path)
                let name = try Self.string(try Self.required(item, "name", in: path + "."), path + ".name")
                let sku = try Self.string(try Self.required(item, "sku", in: path + "."), path + ".sku")
                let quantity = try Self.integer(try Self.required(item, "quantity", in: path + "."), path + ".quantity")
                items.append(OrderResponseModel.Item(name: name, sku: sku, quantity: String(quantity)))
            }
        }
        let customer = try Self.object(try Self.required(top, "customer", in: ""), "customer")
        customerId = try Self.string(try Self.required(customer, "id", in: "customer."), "customer.id")
        guard !customerId.isEmpty else {
            throw Problem(message: "customer.id is empty; send the player's id, the customerId the app gives the SDK")
        }
        email = try customer["email"].map { value throws(Problem) in try Self.string(value, "customer.email") }
        country = "US"
        if let value = top["countryCode2"] {
            country = try Self.string(value, "countryCode2")
            guard CountryCodes.all.contains(country) else {
                throw Problem(
                    message: "countryCode2 '\(country.prefix(12))' is not an ISO 3166-1 alpha-2 code, such as US or DE")
            }
        }
        if let value = top["sessionMetadata"] {
            guard case .object = value.kind else {
                throw Problem(message: "sessionMetadata must be an object, not \(value.typeDescription)")
            }
            var writer = JSONWriter()
            value.write(to: &writer)
            metadata = writer.bytes
        }
        redirectUrl = try top["redirectUrl"].map { value throws(Problem) in try Self.string(value, "redirectUrl") }
    }

    private static func required(_ members: [String: JSONValue], _ name: String, in parent: String) throws(Problem)
        -> JSONValue
    {
        guard let value = members[name] else { throw Problem(message: "\(parent)\(name) is required") }
        return value
    }

    private static func object(_ value: JSONValue, _ path: String) throws(Problem) -> [String: JSONValue] {
        guard case .object(let members) = value.kind else {
            throw Problem(message: "\(path) must be an object, not \(value.typeDescription)")
        }
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    private static func string(_ value: JSONValue, _ path: String) throws(Problem) -> String {
        guard case .string(let text) = value.kind else {
            throw Problem(message: "\(path) must be a string, not \(value.typeDescription)")
        }
        return text
    }

    private static func integer(_ value: JSONValue, _ path: String) throws(Problem) -> Int {
        guard case .number(let text) = value.kind, let number = Int(text), number >= 0 else {
            throw Problem(message: "\(path) must be a whole number of 0 or more, not \(Self.shown(value))")
        }
        return number
    }

    private static func shown(_ value: JSONValue) -> String {
        if case .number(let text) = value.kind { return text.count > 20 ? "a number that large" : text }
        return value.typeDescription
    }
}
