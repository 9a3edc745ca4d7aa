import PaylinksAppcharge
import PaylinksFixtures
import PaylinksKit

/// What `--flow link-out` changes in a checkout: the SDK's callbacks stay unseen, since a
/// game without the SDK receives none, and each checkout ends in the one thing the game
/// does receive, the browser sent to `--redirect-url` with the order's status.
enum LinkOutFlow {
    /// Why the options cannot run by Link Out, in one line; nil when they can, or when the
    /// flow is the SDK's. What only the SDK delivers (its status codes, its checks of the
    /// session against its own configuration, its validation timeout) has no status to map to.
    static func problem(in options: RunOptions, seen: [String: String]) -> String? {
        guard options.flow == .linkOut else { return nil }
        guard let url = options.redirectUrl else {
            return "--flow link-out sends the browser back to the game: add --redirect-url URL, the game's return "
                + "URL (a universal or app link, such as https://game.example/return)"
        }
        if let problem = RedirectURL.problem(url) {
            return "--redirect-url '\(MessageText.sanitized(url))' \(problem)"
        }
        let words = LinkOutLimit.Words.commandLine
        if options.error != nil { return LinkOutLimit.statusCode.reason("--error", in: words) }
        if options.outcome == .pending { return LinkOutLimit.pendingOutcome.reason("--outcome pending", in: words) }
        if let option = ["--browser-mode", "--lose-session"].first(where: { seen[$0] != nil }) {
            return LinkOutLimit.browserChoice.reason(option, in: words)
        }
        if let option = ["--order-customer-id", "--session-environment"].first(where: { seen[$0] != nil }) {
            return LinkOutLimit.sdkCheck.reason(option, in: words)
        }
        if options.concurrency > 1 {
            return "--flow link-out runs its checkouts one after another: leave out --concurrency"
        }
        return nil
    }

    /// The status the browser goes back with once the player did as `player` says and the
    /// order ended in `state`: the checkout's own cancel is the player canceling, closing
    /// the window (or leaving before the order exists) is a fail, as Appcharge has it.
    static func status(after player: PlayerAction, state: OrderState?) -> LinkOutStatus? {
        switch player {
        case .closeBeforeOrder, .leaveOpen:
            LinkOutStatus(state: .paymentCanceled, canceledByPlayer: false)
        case .closeCheckout(let via):
            state.flatMap { LinkOutStatus(state: $0, canceledByPlayer: via == .checkoutInterface) }
        case .pay:
            state.flatMap { LinkOutStatus(state: $0, canceledByPlayer: false) }
        }
    }
}

/// A renderer for Link Out: the SDK's callbacks, which such a game never receives, write
/// nothing; awards and events, which its server still receives, are `base`'s.
struct LinkOutRenderer: CallbackRenderer {
    /// The renderer of everything but the callbacks.
    let base: any CallbackRenderer

    func render(_ callback: Callback, tag: CallbackTag?) -> String { "" }

    func render(award attempt: DeliveryAttempt, url: String, tag: CallbackTag?) -> String {
        base.render(award: attempt, url: url, tag: tag)
    }

    func render(event: OrderEvent, attempt: DeliveryAttempt, url: String?, tag: CallbackTag?) -> String {
        base.render(event: event, attempt: attempt, url: url, tag: tag)
    }

    func render(redirect url: String, status: LinkOutStatus, tag: CallbackTag?) -> String {
        base.render(redirect: url, status: status, tag: tag)
    }
}

extension ExitCode {
    /// The exit code of a Link Out checkout whose browser went back with `status`: 0, or
    /// 12 and 13 as a failed and a canceled purchase end in the SDK's flow.
    init(linkOut status: LinkOutStatus) {
        switch status {
        case .success: self = .success
        case .fail: self = .purchaseFailed
        case .cancel: self = .purchaseCanceled
        }
    }
}
