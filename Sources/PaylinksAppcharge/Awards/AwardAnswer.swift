import PaylinksJSON

/// What a game's server answered to an award: a grant only with 200 and a non-empty
/// string `publisherPurchaseId`.
package struct AwardAnswer {
    /// The members of the body, when it is a JSON object, in its order.
    private let members: [(key: String, value: JSONValue)]
    /// The id the order was granted under, when the answer is a grant.
    package let grantId: String?
    /// Why the answer is not a grant, in a sentence that says what a grant is; nil for a grant.
    package let problem: String?

    /// What a grant is, for the messages.
    package static let grantShape =
        #"a grant is 200 with {"publisherPurchaseId": "<your id for it>"}, a non-empty string"#

    package init(status: Int, body: [UInt8]) {
        let parsed = try? JSONParser.parse(body)
        if let parsed, case .object(let members) = parsed.kind {
            self.members = members
        } else {
            members = []
        }
        let idValue = members.last { $0.key == "publisherPurchaseId" }?.value
        let id = Self.string("publisherPurchaseId", in: members) ?? ""
        grantId = status == 200 && !id.isEmpty ? id : nil
        guard grantId == nil else {
            problem = nil
            return
        }
        if status != 200 {
            problem = "answered \(status), not 200; \(Self.grantShape)"
        } else if parsed == nil {
            problem = "answered 200 with a body that is not JSON; \(Self.grantShape)"
        } else if case .object = parsed?.kind {
            switch idValue?.kind {
            case nil: problem = "answered 200 without a publisherPurchaseId; \(Self.grantShape)"
            case .string?: problem = "answered 200 with an empty publisherPurchaseId; \(Self.grantShape)"
            case .number(let text)?:
                problem =
                    "answered 200 with publisherPurchaseId as a number (\(text)), not a string; answer \"\(text)\""
            default: problem = "answered 200 with a publisherPurchaseId that is not a string; \(Self.grantShape)"
            }
        } else {
            problem = "answered 200 with JSON that is not an object; \(Self.grantShape)"
        }
    }

    /// Whether the body is a JSON object with a member `key`, of any value: an answer that
    /// names `publisherPurchaseId` or `publisherErrorMessage` is an award endpoint's.
    package func has(_ key: String) -> Bool {
        members.contains { $0.key == key }
    }

    /// The string member `key` of the body: the last one of that name that is a string.
    package func string(_ key: String) -> String? {
        Self.string(key, in: members)
    }

    private static func string(_ key: String, in members: [(key: String, value: JSONValue)]) -> String? {
        for member in members.reversed() where member.key == key {
            if case .string(let text) = member.value.kind { return text }
        }
        return nil
    }
}
