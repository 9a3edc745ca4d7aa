/// The cases of an audit of a game's Grant Award endpoint (`paylinks check-award`), in the
/// order they run: what a correct endpoint grants, exactly once, and what it refuses.
public enum AwardAuditCase: String, CaseIterable, Sendable {
    /// A valid callback for a new order is granted.
    case valid
    /// A resend of a granted callback gets the same grant.
    case retry
    /// Two copies at the same moment get one grant.
    case race
    /// Another order gets another grant.
    case differentOrder = "different-order"
    /// A signature with one digit changed is refused.
    case signatureDigit = "signature-digit"
    /// A body changed after it was signed is refused.
    case bodyChanged = "body-changed"
    /// A callback signed with another key is refused.
    case otherKey = "other-key"
    /// A `t` ten minutes old is refused.
    case staleT = "stale-t"
    /// A `t` in seconds is refused.
    case tSeconds = "t-seconds"
    /// A callback without a signature is refused.
    case noSignature = "no-signature"
    /// A `t` that is not a number is refused.
    case malformedT = "malformed-t"
    /// A `v1` without `t` is refused.
    case v1Only = "v1-only"
    /// A signature header that is not `t=...,v1=...` is refused.
    case garbageSignature = "garbage-signature"
    /// The old scheme, `v1` over the body alone, is refused.
    case bodyOnly = "body-only"
    /// Names with spaces are granted.
    case namesSpaces = "names-spaces"
    /// Names with `/` and quotes are granted.
    case namesSlashQuotes = "names-slash-quotes"
    /// Names with accents and emoji are granted.
    case namesUnicode = "names-unicode"
    /// Amounts such as 850.5 and 100.0 are granted.
    case numbers
    /// A wrong publisher token is refused.
    case wrongToken = "wrong-token"
    /// A missing publisher token is refused.
    case missingToken = "missing-token"

    /// Whether the case sends valid callbacks: its verdict stands on the `valid` case
    /// being granted, and says nothing while it is not.
    public var sendsValidCallbacks: Bool {
        switch self {
        case .retry, .race, .differentOrder, .namesSpaces, .namesSlashQuotes, .namesUnicode, .numbers, .wrongToken,
            .missingToken:
            true
        default: false
        }
    }
}
