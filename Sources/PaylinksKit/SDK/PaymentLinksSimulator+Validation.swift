// How a checkout ends: the validation of a paid order, its polls, and the errors of
// every other ending.

extension PaymentLinksSimulator {
    // MARK: The purchase's end

    /// Validates a paid order after its deep link: polls, then the result.
    func validate(
        _ session: CheckoutSession, configuration: ACConfigModel, customerId: String, paidWith method: String,
        outcome: ChargeOutcome, link: String
    ) {
        let order = Self.order(of: session, paidWith: method, at: now)
        let details = details(of: session, configuration: configuration, customerId: customerId)
        record("the player paid with \(method); the deep link returned to the app and the SDK validates the order")
        guard session.environment == configuration.environment else {
            record("the session is in \(session.environment), the SDK in \(configuration.environment)")
            endPurchase(failing: 3006, order: order, link: link, details: details)
            return
        }
        switch outcome {
        case .succeeded:
            // With a granter, the charge waits on the award: polls see charge_pending until
            // it is decided; without one, it is granted at once.
            let beforeAward: [(state: OrderState, polls: Int)] = [
                (.created, 1), (.paymentPending, 2), (.chargePending, 1),
            ]
            poll(awardGranter == nil ? beforeAward + [(.chargeSucceed, 1)] : beforeAward)
            guard session.customerId == customerId else {
                record("the order belongs to \(session.customerId), the SDK to \(customerId)")
                endPurchase(failing: 3007, order: order, link: link, details: details)
                return
            }
            if let awardGranter {
                let polled = beforeAward.reduce(0) { $0 + $1.polls }
                let failure = award(order, with: awardGranter, afterPolls: polled)
                if let failure {
                    record("result: 3003 \(catalog.statusCode(3003)?.name ?? "")")
                    endPurchase(with: awardFailure(of: order, data: failure), link: link)
                    return
                }
            }
            record("result: the order is validated")
            endPurchase(with: .onPurchaseSuccess(order: order), link: link)
        case .declined:
            poll([(.created, 1), (.paymentPending, 2), (.chargeFailed, 1)])
            endPurchase(failing: 3003, order: order, link: link, details: details)
        case .pending:
            pollUntilTimeout(
                after: [(.created, 1), (.paymentPending, 2)], waitingOn: OrderState.chargePending.rawValue)
            endPurchase(failing: 3004, order: order, link: link, details: details)
        }
    }

    /// Has `granter` decide the award of `order`, sent while the order is charge_pending,
    /// right after the SDK's poll number `polled` saw it so. The SDK keeps polling every
    /// ``pollInterval`` while the retries wait, and each of those polls sees charge_pending;
    /// the first poll after the verdict sees charge_succeed, or charge_failed. The data of
    /// the client's 3003 when the award failed; nil when it was granted.
    func award(
        _ order: OrderResponseModel, with granter: (OrderResponseModel) -> AwardVerdict, afterPolls polled: Int
    ) -> String? {
        record("award: Appcharge sends the Grant Award Callback to the game's server")
        let verdict = granter(order)
        var lastPoll = elapsedMilliseconds
        var polls = polled
        for event in verdict.events {
            if event.after > 0 {
                // The polls made while the award waited to be retried, each before its attempt.
                let target = elapsedMilliseconds + event.after
                let count = (target - lastPoll) / Self.pollInterval
                if count > 0 {
                    recordPolls(
                        from: polls + 1, count: count, showing: OrderState.chargePending.rawValue, after: lastPoll)
                    polls += count
                    lastPoll = elapsedMilliseconds
                }
                advance(by: target - elapsedMilliseconds)
            }
            record(event.message)
        }
        let failure: String?
        if case .failed(let data) = verdict.outcome {
            record("every award attempt failed: the order is charge_failed")
            failure = data
        } else {
            failure = nil
        }
        // The SDK's next poll sees how the award ended.
        advance(by: lastPoll + Self.pollInterval - elapsedMilliseconds)
        record("poll #\(polls + 1): \((failure == nil ? OrderState.chargeSucceed : .chargeFailed).rawValue)")
        return failure
    }

    /// Delivers an injected failure of the purchase step at the moment its code's
    /// order rule implies: before the checkout opens, once it is open, or after payment.
    func failInjected(_ code: Int, order: OrderResponseModel, link: String, details: [String: String]) {
        switch catalog.statusCode(code)?.orderAtFailure ?? .none {
        case .none:
            record("openCheckout: the checkout could not open")
        case .checkout:
            record("openCheckout: checkout opened")
            advance(by: 350)
        case .payment:
            record("openCheckout: checkout opened")
            advance(by: 18_350)
            record("the player paid; the deep link returned to the app and the SDK validates the order")
        }
        record("injected failure \(code)")
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

    /// Polls the order's states in turn, each for its number of polls.
    func poll(_ states: [(state: OrderState, polls: Int)]) {
        var number = 0
        for (state, polls) in states {
            recordPolls(from: number + 1, count: polls, showing: state.rawValue)
            number += polls
        }
    }

    /// Polls `states`, then keeps polling while the order shows `waitingState` until the
    /// validation timeout.
    func pollUntilTimeout(after states: [(state: OrderState, polls: Int)], waitingOn waitingState: String) {
        poll(states)
        let done = states.reduce(0) { $0 + $1.polls }
        let total = Self.validationTimeout / Self.pollInterval
        recordPolls(from: done + 1, count: total - done, showing: waitingState)
        record("validation timed out after \(Self.validationTimeout / 1000) s")
    }

    func recordPolls(from first: Int, count: Int, showing state: String) {
        recordPolls(from: first, count: count, showing: state, after: elapsedMilliseconds)
    }

    /// Records `count` polls from number `first`, each ``pollInterval`` after the one
    /// before, the first that long after `previous`, the time of the poll before it.
    func recordPolls(from first: Int, count: Int, showing state: String, after previous: Int) {
        guard count > 0 else { return }
        advance(by: previous + Self.pollInterval - elapsedMilliseconds)
        if count == 1 {
            record("poll #\(first): \(state)")
        } else {
            let start = elapsedMilliseconds
            advance(by: Self.pollInterval * (count - 1))
            guard let trace else { return }
            trace(
                TraceEvent(
                    milliseconds: start,
                    message:
                        "polls #\(first)-#\(first + count - 1): \(state), every \(Self.pollInterval) ms until +\(Self.seconds(elapsedMilliseconds))"
                ))
        }
    }

    // MARK: Errors

    /// The status code an invalid configuration fails with, or nil when it is valid.
    nonisolated static func configurationProblem(in configuration: ACConfigModel, customerId: String) -> Int? {
        if configuration.environment != "sandbox" && configuration.environment != "production" { return 2001 }
        if configuration.checkoutPublicKey.isEmpty { return 2002 }
        if customerId.isEmpty { return 2003 }
        if let url = configuration.redirectUrl, !RedirectURL.isValid(url) { return 2004 }
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

/// The redirect URLs the SDK accepts: https universal links.
enum RedirectURL {
    /// Whether `text` is an absolute `https` URL with a host and no white space.
    static func isValid(_ text: String) -> Bool {
        let prefix = "https://"
        guard text.lowercased().hasPrefix(prefix) else { return false }
        let rest = text.dropFirst(prefix.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains("@")
            && !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    }
}
