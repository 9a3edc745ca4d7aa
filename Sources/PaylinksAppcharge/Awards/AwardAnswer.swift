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
        let parsed = Self.plainGrant(body) ?? (try? JSONParser.parse(body))
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

    /// The opening of the answer nearly every game's server gives.
    private static let plainGrantStart = Array(#"{"publisherPurchaseId":""#.utf8)

    /// The body read as the JSON parser reads it when it is exactly
    /// `{"publisherPurchaseId":"<id>"}` with an id of printable ASCII that needs no
    /// escape, what nearly every grant looks like; nil for any other body, which the
    /// parser reads.
    private static func plainGrant(_ body: [UInt8]) -> JSONValue? {
        let start = plainGrantStart.count
        guard body.count >= start + 2, body[body.count - 2] == UInt8(ascii: "\""),
            body[body.count - 1] == UInt8(ascii: "}"), body.starts(with: plainGrantStart)
        else { return nil }
        let id = body[start..<body.count - 2]
        guard id.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return nil }
        let value = JSONValue(.string(String(decoding: id, as: UTF8.self)), at: start - 1)
        return JSONValue(.object([(key: "publisherPurchaseId", value: value)]), at: 0, keyOffsets: [1])
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
