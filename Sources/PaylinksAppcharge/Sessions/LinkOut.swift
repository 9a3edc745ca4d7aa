public import PaylinksKit

/// Link Out: how a game without Appcharge's SDK (Unreal, Godot, a custom engine, a web
/// build) learns how its checkout ended. Its server creates the session with a
/// `redirectUrl`; once the player is done, the checkout sends the browser to
/// `redirectUrl?status=success|fail|cancel`, which the game parses itself.
///
/// Appcharge's words ("Link Out without the SDK"): `fail` is an error, or the player
/// closing the checkout's window; `cancel` is the player actively canceling the purchase.
public enum LinkOutStatus: String, CaseIterable, Sendable {
    /// The order was paid and its award granted.
    case success
    /// The payment was declined, the award failed on every attempt, or the player closed
    /// the checkout's window (or it expired) before paying.
    case fail
    /// The player canceled the purchase.
    case cancel

    /// The status an order ends with in `state`, `canceledByPlayer` when the player
    /// canceled the purchase rather than closing the window; nil while it has not ended
    /// (created, or a payment or an award under way). An order refunded or disputed later
    /// was a success when the browser went back.
    public init?(state: OrderState, canceledByPlayer: Bool) {
        switch state {
        case .created, .paymentPending, .paymentSucceed, .chargePending: return nil
        case .chargeFailed, .paymentFailed: self = .fail
        case .paymentCanceled: self = canceledByPlayer ? .cancel : .fail
        case .chargeSucceed, .paymentRefundPending, .paymentRefunded, .paymentRefundFailed, .paymentDisputeOpen,
            .paymentDisputeEvidenceSubmitted, .paymentDisputeWon, .paymentDisputeLost:
            self = .success
        }
    }

    /// Where the browser goes: `redirectUrl` with `status=` added to its query, after any
    /// query it has, before any fragment.
    public func redirect(to redirectUrl: String) -> String {
        var base = Substring(redirectUrl)
        var fragment = Substring("")
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        let separator = !base.contains("?") ? "?" : base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&"
        return "\(base)\(separator)status=\(rawValue)\(fragment)"
    }
}
