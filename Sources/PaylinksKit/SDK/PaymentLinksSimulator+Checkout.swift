// The checkout: opening it, what the player does, the return link, and the timeline the
// trace follows.

extension PaymentLinksSimulator {
    // MARK: The checkout

    /// Opens the checkout of a session the game's server created, with the `purchaseId`
    /// and `parsedUrl` it received; the scripted player then acts.
    ///
    /// A close ends the purchase at once in `onPurchaseFailed`. A payment returns to the
    /// app through the checkout's deep link, and the purchase ends when the app hands
    /// that link to ``handleDeepLink(_:)``. A purchase id the server never issued ends in
    /// 3005, a `parsedUrl` that is not the session's in 4002.
    public func openCheckout(purchaseId: String, parsedUrl: String) {
        open(purchaseId: purchaseId, parsedUrl: parsedUrl, customerId: customerId)
    }

    /// Opens a checkout the G3 way, with the player's customer id. Before anything opens
    /// the arguments are checked, in this order, each failing on `onPurchaseFailed` with
    /// no order: an empty customer id (8002), an empty purchase id (8000), a parsed URL
    /// without a session token (8001).
    public func openCheckout(purchaseId: String, parsedUrl: String, customerId: String) {
        open(purchaseId: purchaseId, parsedUrl: parsedUrl, customerId: customerId)
    }

    func open(purchaseId: String, parsedUrl: String, customerId: String?) {
        guard let configuration, let customerId = customerId ?? (target.generation == .g3 ? "" : nil) else {
            record("openCheckout before initialize")
            lastCheckoutDeepLink = nil
            deliver(.onPurchaseFailed(error: notInitialized(request: "openCheckout"), order: nil))
            return
        }
        let link = returnLink(purchaseId: purchaseId, configuration: configuration)
        lastCheckoutDeepLink = link
        pendingDeepLink = nil
        awaitingDeepLink = nil
        if target.generation == .g3 {
            let argument: (code: Int, problem: String)? =
                if customerId.isEmpty {
                    (8002, "the customer id is empty")
                } else if purchaseId.isEmpty {
                    (8000, "the purchase id is empty")
                } else if CheckoutSession.sessionToken(inParsedUrl: parsedUrl)?.isEmpty ?? true {
                    (8001, "the parsed URL has no session token")
                } else {
                    nil
                }
            if let argument {
                record("openCheckout: \(argument.problem), so nothing opens")
                endPurchase(
                    failing: argument.code, order: nil, link: link,
                    details: ["purchaseId": purchaseId, "request": "openCheckout"])
                return
            }
        }
        guard let session = backend.openSession(purchaseId: purchaseId, at: virtualMilliseconds) else {
            record("openCheckout: no checkout session has purchase id \(purchaseId)")
            endPurchase(failing: 3005, order: nil, link: link, details: ["purchaseId": purchaseId])
            return
        }
        let player = scriptedPlayerActions.isEmpty ? defaultPlayerAction : scriptedPlayerActions.removeFirst()
        var paymentMethod = ""
        if case .pay(let method, _) = player { paymentMethod = method }
        let order = Self.order(of: session, paidWith: paymentMethod, at: now)
        let details = details(of: session, configuration: configuration, customerId: customerId)
        if let code = injectedFailures.removeValue(forKey: .purchase) {
            failInjected(code, player: player, session: session, order: order, link: link, details: details)
            return
        }
        guard CheckoutSession.sessionToken(inParsedUrl: parsedUrl) == session.checkoutSessionToken else {
            record("openCheckout: the parsed URL is not this session's checkout URL")
            endPurchase(failing: 4002, order: nil, link: link, details: details)
            return
        }
        if let browserMode, !BrowserMode.modes(on: target.platform).contains(browserMode) {
            record("openCheckout: \(target) has no \(browserMode.rawValue) browser mode, so nothing opens")
            endPurchase(failing: 4000, order: nil, link: link, details: details)
            return
        }
        record(
            "openCheckout: \(checkoutOpened) for \(session.offer.sku), "
                + "\(catalog.priceText(minorUnits: session.price, currency: session.currency)), purchase \(session.purchaseId)"
        )
        advance(by: 350)
        if losesBrowserSession, browserMode?.isExternal == true {
            advance(by: 6_000)
            record("the external browser lost the checkout session")
            // Appcharge's side sees the checkout closed, as when the player closes the browser.
            told(.closeCheckout(via: .browserControls), in: session)
            endPurchase(failing: 3000, order: order, link: link, details: details)
            return
        }
        switch player {
        case .closeBeforeOrder:
            advance(by: 4_000)
            record("the player closed the checkout before the order was created")
            told(player, in: session)
            _ = pollOrder(of: session)
            endPurchase(failing: 3005, order: order, link: link, details: details)
        case .leaveOpen:
            advance(by: Self.sessionLifetime)
            record(
                "the checkout session expired after \(Self.sessionLifetime / 3_600_000) h with the checkout still open")
            told(player, in: session)
            endPurchase(failing: 3005, order: order, link: link, details: details)
        case .closeCheckout(let method):
            advance(by: 6_000)
            switch method {
            case .checkoutInterface:
                record("the player closed the checkout interface")
                told(player, in: session)
                endPurchase(failing: 3002, order: order, link: link, details: details)
            case .browserControls:
                record("the player closed the browser with the system's controls")
                told(player, in: session)
                endPurchase(failing: 3000, order: order, link: link, details: details)
            }
        case .pay(let method, _):
            advance(by: 18_000)
            told(player, in: session)
            awaitingDeepLink = (session, configuration, customerId, method)
            pendingDeepLink = link
            openURL?(link)
        }
    }

    /// "checkout opened", and where when ``browserMode`` is set: "checkout opened in Safari
    /// (external)".
    var checkoutOpened: String {
        "checkout opened" + (browserMode.map { " " + $0.place(on: target.platform) } ?? "")
    }

    /// Tells the backend what the player did in the checkout of `session`, now; what it
    /// did about it waits for its moment in the trace.
    func told(_ player: PlayerAction, in session: CheckoutSession) {
        let notes = backend.player(player, in: session, at: virtualMilliseconds)
        guard trace != nil else { return }
        backendNotes.append(contentsOf: notes)
        backendNotes.sort { $0.milliseconds < $1.milliseconds }
    }

    /// Hands the SDK a link the app was opened with; returns whether it was the SDK's.
    ///
    /// The return link of a paid checkout makes the SDK validate the order: it polls the
    /// order's state and ends the purchase in `onPurchaseSuccess` or `onPurchaseFailed`.
    /// With ``revalidatesOnEveryDeepLink``, the return link of a checkout that already
    /// ended validates it again and delivers its result once more. Any other link is not
    /// the SDK's, and nothing happens.
    @discardableResult
    public func handleDeepLink(_ url: String) -> Bool {
        if let paid = awaitingDeepLink, url == pendingDeepLink {
            awaitingDeepLink = nil
            pendingDeepLink = nil
            validate(
                paid.session, configuration: paid.configuration, customerId: paid.customerId, paidWith: paid.method,
                link: url)
            return true
        }
        if revalidatesOnEveryDeepLink, let last = lastPurchaseResult, last.link == url {
            record("the deep link arrived again; the SDK validates the order again")
            deliver(last.callback)
            return true
        }
        return false
    }

    // MARK: Time and trace

    package func advance(by milliseconds: Int) {
        elapsedMilliseconds += milliseconds
    }

    /// Tells the trace, if any, what happened now, after what the backend did before now;
    /// the message is made only for a trace.
    func record(_ message: @autoclosure () -> String) {
        guard let trace else { return }
        // What the backend did at this very moment follows what the SDK says of it.
        showBackendNotes(through: virtualMilliseconds - 1)
        trace(TraceEvent(milliseconds: elapsedMilliseconds, message: message()))
    }

    /// Shows on the trace what the backend did up to `milliseconds` (Unix).
    func showBackendNotes(through milliseconds: Int) {
        guard let trace, backendNotes.first.map({ $0.milliseconds <= milliseconds }) ?? false else { return }
        let start = virtualMilliseconds - elapsedMilliseconds
        while let note = backendNotes.first, note.milliseconds <= milliseconds {
            backendNotes.removeFirst()
            trace(TraceEvent(milliseconds: note.milliseconds - start, message: note.message))
        }
    }

    /// The virtual clock now, in Unix milliseconds: the start, and the time simulated since.
    package var virtualMilliseconds: Int {
        let (start, overflow) = now.multipliedReportingOverflow(by: 1000)
        guard !overflow, start <= Int.max - elapsedMilliseconds else { return Int.max }
        return start + elapsedMilliseconds
    }

    /// `18.950s`.
    package nonisolated static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}
