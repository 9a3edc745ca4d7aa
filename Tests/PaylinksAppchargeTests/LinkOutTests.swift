import PaylinksAppcharge
import PaylinksKit
import Testing

/// Link Out's return: the status an order ends with, and the URL the browser goes to.
@Suite("Link Out")
struct LinkOutTests {
    @Test("success once granted; fail for a decline, a failed award or a closed window; cancel when canceled")
    func statuses() {
        #expect(LinkOutStatus(state: .chargeSucceed, canceledByPlayer: false) == .success)
        #expect(LinkOutStatus(state: .paymentRefunded, canceledByPlayer: false) == .success)
        #expect(LinkOutStatus(state: .paymentFailed, canceledByPlayer: false) == .fail)
        #expect(LinkOutStatus(state: .chargeFailed, canceledByPlayer: false) == .fail)
        #expect(LinkOutStatus(state: .paymentCanceled, canceledByPlayer: false) == .fail)
        #expect(LinkOutStatus(state: .paymentCanceled, canceledByPlayer: true) == .cancel)
        for moving in [OrderState.created, .paymentPending, .paymentSucceed, .chargePending] {
            #expect(LinkOutStatus(state: moving, canceledByPlayer: false) == nil, "\(moving)")
        }
    }

    @Test(
        "status is added to the query the URL has, before its fragment",
        arguments: [
            ("https://game.example/return", "https://game.example/return?status=success"),
            ("https://game.example/return?player=7", "https://game.example/return?player=7&status=success"),
            ("https://game.example/return?", "https://game.example/return?status=success"),
            ("https://game.example/return?a=1&", "https://game.example/return?a=1&status=success"),
            ("mygame://store#top", "mygame://store?status=success#top"),
            ("https://game.example/r?x=1#frag?y", "https://game.example/r?x=1&status=success#frag?y"),
        ])
    func redirect(url: String, expected: String) {
        #expect(LinkOutStatus.success.redirect(to: url) == expected)
    }
}
