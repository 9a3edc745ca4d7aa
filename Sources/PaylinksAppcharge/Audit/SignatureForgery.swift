/// The ways a signed request from Appcharge is forged, altered or replayed: what a game's
/// award and events endpoints must both refuse, and what `check-award` and `check-events`
/// send to see that they do.
public enum SignatureForgery: String, CaseIterable, Sendable {
    /// A signature with one hex digit changed.
    case signatureDigit = "signature-digit"
    /// A body changed after it was signed.
    case bodyChanged = "body-changed"
    /// A request signed with another key.
    case otherKey = "other-key"
    /// A correct signature whose `t` is ten minutes old: a replay.
    case staleT = "stale-t"
    /// `t` in seconds instead of milliseconds.
    case tSeconds = "t-seconds"
    /// No `signature` header at all.
    case noSignature = "no-signature"
    /// A `t` that is not a number.
    case malformedT = "malformed-t"
    /// A `v1` without `t`.
    case v1Only = "v1-only"
    /// A header that is not `t=...,v1=...`.
    case garbageSignature = "garbage-signature"
    /// The old scheme: `v1` over the body alone, without `t`.
    case bodyOnly = "body-only"

    /// The forgery in a few words, as the audits' help lists it: "v1 with one hex digit changed".
    public var summary: String {
        switch self {
        case .signatureDigit: "v1 with one hex digit changed"
        case .bodyChanged: "the body changed after it was signed"
        case .otherKey: "signed with another key"
        case .staleT: "a correct signature whose t is ten minutes old"
        case .tSeconds: "t in seconds instead of milliseconds"
        case .noSignature: "no signature header"
        case .malformedT: "a t that is not a number"
        case .v1Only: "v1 alone, no t"
        case .garbageSignature: "a header that is not t=...,v1=..."
        case .bodyOnly: "the old scheme, v1 over the body alone"
        }
    }

    /// What is sent, in a phrase: "a request whose v1 has one hex digit changed".
    public func sent(_ what: String) -> String {
        // "an event", "a callback".
        let a = what.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return switch self {
        case .signatureDigit: "a valid \(what) whose v1 has one hex digit changed"
        case .bodyChanged: "\(a) \(what) whose body was changed after it was signed"
        case .otherKey: "\(a) \(what) signed with another key"
        case .staleT: "a correctly signed \(what) whose t is ten minutes old"
        case .tSeconds: "\(a) \(what) signed with t in seconds instead of milliseconds"
        case .noSignature: "\(a) \(what) without a signature header"
        case .malformedT: "a signature whose t is not a number (t=abc)"
        case .v1Only: "a signature with v1 alone, no t"
        case .garbageSignature: "a signature header that is not t=...,v1=..."
        case .bodyOnly: "the old scheme: v1 over the body alone, without t"
        }
    }

    /// What is sent instead of `body` signed at `milliseconds` with `key`: the body, and
    /// the `signature` header, nil for none. `field` names a number of the body that
    /// ``bodyChanged`` changes after signing (a 1 goes before its first digit).
    public func forge(body: [UInt8], milliseconds: Int, key: [UInt8], field: String) -> (
        body: [UInt8], signature: String?
    ) {
        let valid = GrantAward.signature(body: body, milliseconds: milliseconds, key: key)
        let v1 = valid.split(separator: ",").last.map(String.init) ?? ""
        switch self {
        case .signatureDigit:
            var signature = Array(valid.utf8)
            let last = signature.count - 1
            signature[last] = signature[last] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            return (body, String(decoding: signature, as: UTF8.self))
        case .bodyChanged:
            return (Self.changing(field, in: body), valid)
        case .otherKey:
            return (body, GrantAward.signature(body: body, milliseconds: milliseconds, key: Array("not-the-key".utf8)))
        case .staleT:
            return (body, GrantAward.signature(body: body, milliseconds: milliseconds - 600_000, key: key))
        case .tSeconds:
            return (body, GrantAward.signature(body: body, milliseconds: milliseconds / 1000, key: key))
        case .noSignature:
            return (body, nil)
        case .malformedT:
            return (body, "t=abc," + v1)
        case .v1Only:
            return (body, v1)
        case .garbageSignature:
            return (body, "garbage")
        case .bodyOnly:
            return (body, "t=\(milliseconds),v1=\(HMACSHA256.hex(HMACSHA256.authenticate(body, key: key)))")
        }
    }

    /// `body` with a 1 before the value of its first `"field":`, or with a space added when
    /// it has none: changed either way.
    static func changing(_ field: String, in body: [UInt8]) -> [UInt8] {
        let target = Array("\"\(field)\":".utf8)
        guard target.count <= body.count else { return body + [UInt8(ascii: " ")] }
        for start in 0...(body.count - target.count) where body[start..<(start + target.count)].elementsEqual(target) {
            let at = start + target.count
            return Array(body[..<at]) + [UInt8(ascii: "1")] + Array(body[at...])
        }
        return body + [UInt8(ascii: " ")]
    }
}
