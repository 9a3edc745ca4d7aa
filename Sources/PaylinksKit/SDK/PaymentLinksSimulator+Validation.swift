// How a checkout ends: the validation of a paid order, its polls, and the errors of
// every other ending.

extension PaymentLinksSimulator {
    // MARK: The purchase's end

    /// Validates a paid order after its deep link: polls the backend until the order is
    /// final or the validation times out, then ends the purchase as the order stands.
    func validate(
        _ session: CheckoutSession, configuration: ACConfigModel, customerId: String, paidWith method: String,
        link: String
    ) {
        let order = Self.order(of: session, paidWith: method, at: now)
        let details = details(of: session, configuration: configuration, customerId: customerId)
        record("the player paid with \(method); the deep link returned to the app and the SDK validates the order")
        showBackendNotes(through: virtualMilliseconds)
        guard session.environment == configuration.environment else {
            record("the session is in \(session.environment), the SDK in \(configuration.environment)")
            endPurchase(failing: 3006, order: order, link: link, details: details)
            return
        }
        let polled = pollOrder(of: session)
        switch polled.state {
        case .chargeSucceed?:
            guard session.customerId == customerId else {
                record("the order belongs to \(session.customerId), the SDK to \(customerId)")
                endPurchase(failing: 3007, order: order, link: link, details: details)
                return
            }
            record("result: the order is validated")
            endPurchase(with: .onPurchaseSuccess(order: order), link: link)
        case .chargeFailed? where polled.awardFailure != nil:
            record("result: 3003 \(catalog.statusCode(3003)?.name ?? "")")
            endPurchase(with: awardFailure(of: order, data: polled.awardFailure ?? ""), link: link)
        case .chargeFailed?, .paymentFailed?:
            endPurchase(failing: 3003, order: order, link: link, details: details)
        case .paymentCanceled?:
            endPurchase(failing: 3002, order: order, link: link, details: details)
        default:
            var details = details
            details["lastState"] = polled.state?.rawValue ?? "not found"
            endPurchase(failing: 3004, order: order, link: link, details: details)
        }
    }

    /// Delivers an injected failure of the purchase step at the moment its code's
    /// order rule implies: before the checkout opens, once it is open, or after payment.
    func failInjected(
        _ code: Int, player: PlayerAction, session: CheckoutSession, order: OrderResponseModel, link: String,
        details: [String: String]
    ) {
        switch catalog.statusCode(code)?.orderAtFailure ?? .none {
        case .none:
            record("openCheckout: the checkout could not open")
        case .checkout:
            record("openCheckout: \(checkoutOpened)")
            advance(by: 350)
            // A cancel is the player's own doing: Appcharge's side sees the checkout closed.
            if catalog.statusCode(code)?.isCancel == true { told(.closeCheckout(), in: session) }
        case .payment:
            record("openCheckout: \(checkoutOpened)")
            advance(by: 18_350)
            // The player paid, whatever the SDK then makes of it: Appcharge's side goes on.
            told(player, in: session)
            record("the player paid; the deep link returned to the app and the SDK validates the order")
            showBackendNotes(through: virtualMilliseconds)
        }
        record("injected failure \(code)")
        var details = details
        details["lastState"] = backend.poll(session, at: virtualMilliseconds).state?.rawValue ?? "not found"
        endPurchase(failing: code, order: order, link: link, details: details, asGiven: true)
    }

    /// Ends a purchase in `onPurchaseFailed` with `code`, and what the SDK knew of the
    /// order by the code's rule.
    ///
    /// `code` is the current table's (an older table sends the code that reports it),
    /// or with `asGiven`, an injected code of the generation's own table. G1 sends no
    /// order; G3 sends the player's cancels to `onPurchaseCanceled`.
    func endPurchase(
        failing code: Int, order: OrderResponseModel?, link: String, details: [String: String], asGiven: Bool = false
    ) {
        let sent = asGiven ? code : catalog.code(reporting: code)
        let error = failure(sent, details: details)
        let known = target.generation == .g1 ? nil : order.flatMap { disclosed($0, for: sent) }
        endPurchase(with: StatusCode.purchaseResult(catalog.statusCode(sent), error: error, order: known), link: link)
    }

    func endPurchase(with result: Callback, link: String) {
        lastPurchaseResult = (link, result)
        deliver(result)
    }

    // MARK: Polling

    /// Polls the backend for the order of `session` every ``pollInterval`` until it is
    /// final or the validation times out; the order as the last poll read it. The trace
    /// shows each run of polls that read the same state as one line, and what the backend
    /// did between them in its place.
    func pollOrder(of session: CheckoutSession) -> PolledOrder {
        var polled = PolledOrder(state: nil)
        var run: (first: Int, last: Int, start: Int, state: String)?
        let total = Self.validationTimeout / Self.pollInterval
        for number in 1...total {
            advance(by: Self.pollInterval)
            if backendNotes.first.map({ $0.milliseconds <= virtualMilliseconds }) ?? false {
                show(run)
                run = nil
                showBackendNotes(through: virtualMilliseconds)
            }
            polled = backend.poll(session, at: virtualMilliseconds)
            let state = polled.state?.rawValue ?? "not found"
            if let current = run, current.state == state {
                run?.last = number
            } else {
                show(run)
                run = (number, number, elapsedMilliseconds, state)
            }
            if polled.isFinal { break }
        }
        show(run)
        if !polled.isFinal { record("validation timed out after \(Self.validationTimeout / 1000) s") }
        return polled
    }

    /// Shows a run of polls that read the same state on the trace.
    private func show(_ run: (first: Int, last: Int, start: Int, state: String)?) {
        guard let trace, let run else { return }
        let message =
            run.first == run.last
            ? "poll #\(run.first): \(run.state)"
            : "polls #\(run.first)-#\(run.last): \(run.state), every \(Self.pollInterval) ms until "
                + "+\(Self.seconds(run.start + (run.last - run.first) * Self.pollInterval))"
        trace(TraceEvent(milliseconds: run.start, message: message))
    }

    // MARK: Errors

    /// The status code an invalid configuration fails with, or nil when it is valid.
    nonisolated static func configurationProblem(in configuration: ACConfigModel, customerId: String) -> Int? {
        if configuration.environment != "sandbox" && configuration.environment != "production" { return 2001 }
        if configuration.checkoutPublicKey.isEmpty { return 2002 }
        if customerId.isEmpty { return 2003 }
        if let url = configuration.redirectUrl, !RedirectURL.isUniversalLink(url) { return 2004 }
        return nil
    }

    /// What the client gets for a paid order whose award failed on every attempt: 3003,
    /// the whole order, and `data` (the last status and the server's message).
    public func awardFailure(of order: OrderResponseModel, data: String) -> Callback {
        var error = catalog.error(3003)
        error.data = data
        return .onPurchaseFailed(error: error, order: order)
    }

    /// The catalog's error for `code`; a code missing from a hand-made catalog still
    /// gets a message.
    func failure(_ code: Int, details: [String: String]) -> ACErrorMessage {
        record("result: \(code) \(catalog.statusCode(code)?.name ?? "")")
        return catalog.error(code, details: details)
    }

    /// The part of the order the SDK knew when `code` happened, by the code's rule.
    func disclosed(_ order: OrderResponseModel, for code: Int) -> OrderResponseModel? {
        StatusCode.disclosed(order, by: catalog.statusCode(code)?.orderAtFailure ?? .checkout)
    }

    /// The error for a request made before a successful `initialize`: 2000, with the
    /// request in its data.
    func notInitialized(request: String) -> ACErrorMessage {
        failure(2000, details: ["request": request])
    }
}
