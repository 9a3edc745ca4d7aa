import PaylinksJSON

/// What a game's server answered to an award: a grant only with 200 and a non-empty
/// string `publisherPurchaseId`.
package struct AwardAnswer {
    /// The string members of the body, when it is a JSON object.
    package let members: [String: String]
    /// The id the order was granted under, when the answer is a grant.
    package let grantId: String?
    /// Why the answer is not a grant, in a sentence that says what a grant is; nil for a grant.
    package let problem: String?

    /// What a grant is, for the messages.
    package static let grantShape =
        #"a grant is 200 with {"publisherPurchaseId": "<your id for it>"}, a non-empty string"#

    package init(status: Int, body: [UInt8]) {
        var strings: [String: String] = [:]
        var idValue: JSONValue?
        let parsed = try? JSONParser.parse(body)
        if let parsed, case .object(let members) = parsed.kind {
            for member in members {
                if case .string(let text) = member.value.kind { strings[member.key] = text }
                if member.key == "publisherPurchaseId" { idValue = member.value }
            }
        }
        members = strings
        let id = strings["publisherPurchaseId"] ?? ""
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
}
