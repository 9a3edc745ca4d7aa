/// A case of an audit of one of the game's endpoints, named as `--case` takes it.
public protocol AuditCase: CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// The case's name: `stale-t`.
    var name: String { get }
    /// What the case checks, in a few words, as the help lists it.
    var summary: String { get }
}

extension AuditCase {
    /// The case named `name`, if there is one.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// Every case's name, in the order the cases run.
    public static var names: [String] { allCases.map(\.name) }
}

/// The cases of an audit of a game's Grant Award endpoint (`paylinks check-award`), in the
/// order they run: what a correct endpoint grants, exactly once, and what it refuses.
public enum AwardAuditCase: AuditCase {
    /// A valid callback for a new order is granted.
    case valid
    /// A resend of a granted callback gets the same grant.
    case retry
    /// Two copies at the same moment get one grant.
    case race
    /// Another order gets another grant.
    case differentOrder
    /// A forged, altered or replayed callback is refused.
    case forged(SignatureForgery)
    /// Names with spaces are granted.
    case namesSpaces
    /// Names with `/` and quotes are granted.
    case namesSlashQuotes
    /// Names with accents and emoji are granted.
    case namesUnicode
    /// Amounts such as 850.5 and 100.0 are granted.
    case numbers
    /// A wrong publisher token is refused.
    case wrongToken
    /// A missing publisher token is refused.
    case missingToken

    /// Every case, in the order they run.
    public static var allCases: [AwardAuditCase] {
        [.valid, .retry, .race, .differentOrder] + SignatureForgery.allCases.map(Self.forged)
            + [.namesSpaces, .namesSlashQuotes, .namesUnicode, .numbers, .wrongToken, .missingToken]
    }

    /// The case's name, as `--case` takes it.
    public var name: String {
        switch self {
        case .valid: "valid"
        case .retry: "retry"
        case .race: "race"
        case .differentOrder: "different-order"
        case .forged(let forgery): forgery.rawValue
        case .namesSpaces: "names-spaces"
        case .namesSlashQuotes: "names-slash-quotes"
        case .namesUnicode: "names-unicode"
        case .numbers: "numbers"
        case .wrongToken: "wrong-token"
        case .missingToken: "missing-token"
        }
    }

    /// What the case checks, in a few words, as the help lists it.
    public var summary: String {
        switch self {
        case .valid: "a valid callback is granted"
        case .retry: "a resend gets the same grant"
        case .race: "two copies at the same moment get one grant"
        case .differentOrder: "another order gets another grant"
        case .forged(let forgery): "refused: \(forgery.summary)"
        case .namesSpaces: "names with spaces are granted"
        case .namesSlashQuotes: "names with / and quotes are granted"
        case .namesUnicode: "names with accents and emoji are granted"
        case .numbers: "amounts such as 850.5 and 100.0 are granted"
        case .wrongToken: "a wrong x-publisher-token is refused"
        case .missingToken: "a missing x-publisher-token is refused"
        }
    }

    /// Whether the case sends valid callbacks: its verdict stands on the `valid` case
    /// being granted, and says nothing while it is not.
    public var sendsValidCallbacks: Bool {
        switch self {
        case .valid, .forged: false
        default: true
        }
    }
}

/// The cases of an audit of a game's events handler (`paylinks check-events`), in the
/// order they run: what a correct handler accepts, refuses, and does with the money.
public enum EventAuditCase: AuditCase {
    /// A valid event is accepted.
    case valid
    /// A forged, altered or replayed event is refused with a 4xx.
    case forged(SignatureForgery)
    /// An event with fields the handler has never seen is accepted.
    case unknownFields
    /// An event with only its name, id and time is accepted.
    case missingFields
    /// The documented type variants are accepted: quantities and amounts as strings,
    /// `"True"` for a boolean, `customer.playerId` for `customer.id`.
    case typeVariants
    /// Names with spaces are accepted.
    case namesSpaces
    /// Names with `/` and quotes are accepted.
    case namesSlashQuotes
    /// Names with accents and emoji are accepted.
    case namesUnicode
    /// Numbers such as `100.0` and `0.00` are accepted.
    case numbers
    /// A refund takes the order's products back.
    case refund
    /// A refund delivered twice, one copy after the other, has one effect.
    case duplicate
    /// A refund delivered twice at the same moment has one effect.
    case duplicateRace
    /// A refund that arrives before the order's completion takes the products back once.
    case refundFirst
    /// A refund of an order never granted takes nothing.
    case refundUngranted
    /// A dispute lost takes the order's products back once.
    case disputeLost
    /// A dispute opened and then won leaves the balance as it was before.
    case disputeWon
    /// A partial refund: what the handler did with it.
    case partialRefund
    /// A verified event whose handling fails (an order the handler does not know) is still
    /// answered 2xx.
    case businessFailure

    /// Every case, in the order they run.
    public static var allCases: [EventAuditCase] {
        [.valid] + SignatureForgery.allCases.map(Self.forged)
            + [
                .unknownFields, .missingFields, .typeVariants, .namesSpaces, .namesSlashQuotes, .namesUnicode, .numbers,
                .refund, .duplicate, .duplicateRace, .refundFirst, .refundUngranted, .disputeLost, .disputeWon,
                .partialRefund, .businessFailure,
            ]
    }

    /// The case's name, as `--case` takes it.
    public var name: String {
        switch self {
        case .valid: "valid"
        case .forged(let forgery): forgery.rawValue
        case .unknownFields: "unknown-fields"
        case .missingFields: "missing-fields"
        case .typeVariants: "type-variants"
        case .namesSpaces: "names-spaces"
        case .namesSlashQuotes: "names-slash-quotes"
        case .namesUnicode: "names-unicode"
        case .numbers: "numbers"
        case .refund: "refund"
        case .duplicate: "duplicate"
        case .duplicateRace: "duplicate-race"
        case .refundFirst: "refund-first"
        case .refundUngranted: "refund-ungranted"
        case .disputeLost: "dispute-lost"
        case .disputeWon: "dispute-won"
        case .partialRefund: "partial-refund"
        case .businessFailure: "business-failure"
        }
    }

    /// What the case checks, in a few words, as the help lists it.
    public var summary: String {
        switch self {
        case .valid: "a valid event is accepted (2xx)"
        case .forged(let forgery): "refused with a 4xx: \(forgery.summary)"
        case .unknownFields: "fields the handler has never seen are accepted"
        case .missingFields: "an event of only its name, id and time is accepted"
        case .typeVariants: "the documented type variants are accepted"
        case .namesSpaces: "names with spaces are accepted"
        case .namesSlashQuotes: "names with / and quotes are accepted"
        case .namesUnicode: "names with accents and emoji are accepted"
        case .numbers: "numbers such as 100.0 and 0.00 are accepted"
        case .refund: "a refund takes the order's products back"
        case .duplicate: "a refund delivered twice takes them back once"
        case .duplicateRace: "two copies of a refund at the same moment take them back once"
        case .refundFirst: "a refund before the order's completion takes them back once"
        case .refundUngranted: "a refund of an order never granted takes nothing"
        case .disputeLost: "a dispute lost takes the order's products back"
        case .disputeWon: "a dispute opened, then won, leaves the balance as it was"
        case .partialRefund: "a refund of half an order: what the handler did"
        case .businessFailure: "an event the handler cannot use is still answered 2xx"
        }
    }

    /// Whether the case follows the money: it grants an order through the award endpoint
    /// and reads the player's balances from the ledger.
    public var followsMoney: Bool {
        switch self {
        case .refund, .duplicate, .duplicateRace, .refundFirst, .refundUngranted, .disputeLost, .disputeWon,
            .partialRefund:
            true
        default: false
        }
    }

    /// Whether the case sends valid events: its verdict stands on the `valid` case being
    /// accepted, and says nothing while it is not.
    public var sendsValidEvents: Bool {
        switch self {
        case .valid, .forged: false
        default: true
        }
    }
}
