import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksKit

/// `paylinks trigger EVENT`: plays the shortest story that leads to the event (a
/// checkout, its award with `--award-url`, then refunds or disputes) and sends every event
/// of it, in order, to `--events-url`, or shows each as it would be sent, headers and body.
enum TriggerCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        guard let target = options.triggerEvent else { throw .internal("trigger without an event") }
        var options = options
        // The story needs an offer; the catalog's first is as good as any.
        if options.sku == nil { options.sku = catalog.offers.first?.sku }
        if let amount = options.refundAmount, let sku = options.sku, let offer = catalog.offer(sku: sku),
            let price = catalog.localization(for: options.country)?.minorUnits(ofTier: offer.basePriceInUSD),
            !(1...max(1, price)).contains(amount)
        {
            throw .usage(
                "--amount \(amount) is more than the order's price, \(price) minor units of \(sku) in "
                    + "\(options.country); give 1 to \(price), or leave it out for a full refund",
                command: .trigger)
        }
        // Without --now the story ends now, a delayed event 5 minutes before.
        options = try CheckoutFlow.endingNow(
            .trigger, options: options, catalog: catalog, context: context,
            extra: options.eventFault == .delay ? DeliveryFault.delayMilliseconds : 0
        ) { flow throws(CLIError) in
            try play(target, in: flow)
            return flow.sdk.elapsedMilliseconds
        }
        let flow = try CheckoutFlow(.trigger, options: options, catalog: catalog, context: context)
        defer { flow.close() }
        guard flow.initialized, let events = flow.events else { return try flow.finish() }
        // A fault is on the target's way; reordered, the target overtakes the event before it.
        if let fault = options.eventFault { events.arm(fault, on: target) }
        try play(target, in: flow)
        events.disarm()
        events.releaseHeld()
        if !events.reachedTarget {
            // An award refused on every attempt, say: the order went another way.
            let state = flow.appcharge.lastState.map { " (the order is \($0.rawValue))" } ?? ""
            try? context.standardError.write(
                "note: the story never reached \(target.v2Name)\(state): the exit code is the client's\n")
        }
        return try flow.finish()
    }

    /// Plays the shortest story that leads to `target` in `flow`: the checkout, then the
    /// order's life after its award. A story whose award failed goes on: Appcharge refunds
    /// and disputes Charge Failed orders too; one the client ended otherwise, or a free
    /// order, has no life after the award.
    private static func play(_ target: OrderEvent.Name, in flow: CheckoutFlow) throws(CLIError) {
        let options = flow.options
        let plan = OrderStory.plan(for: target, refundAmount: options.refundAmount)
        let player: PlayerAction =
            switch plan.ending {
            case .declined: .pay(paymentMethodName: options.paymentMethod, outcome: .declined)
            case .canceled: .closeCheckout()
            case .paid: .pay(paymentMethodName: options.paymentMethod)
            }
        try flow.checkout(player, through: target)
        guard flow.appcharge.lastPaid != nil else { return }
        for action in plan.life {
            do {
                try flow.act(action)
            } catch .refused(.free) {
                // A free offer's order moved no money: it has no life after its award.
                return
            } catch {
                throw .internal("the story of \(target.v2Name) broke a rule: \(error.message)")
            }
        }
    }
}
