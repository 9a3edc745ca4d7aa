import PaylinksKit

extension CheckoutFlow {
    /// `options` with `--now`, when it is absent and the run sends something signed, placed
    /// so that the run ends at the wall clock, `extra` milliseconds early (a delayed event's
    /// 5 minutes): a run tells the game's server of what just happened, never of what is
    /// yet to come, so no award or event is signed before it happened nor ahead of the
    /// server's clock. `span` plays the run in a flow that sends and shows nothing and says
    /// how long it takes on the run's clock, in milliseconds.
    static func endingNow(
        _ command: Command, options: RunOptions, catalog: Catalog, context: RunContext, extra: Int = 0,
        span: (CheckoutFlow) throws(CLIError) -> Int
    ) throws(CLIError) -> RunOptions {
        guard options.now == nil, options.eventsUrl != nil || options.awardUrl != nil || command == .trigger else {
            return options
        }
        var quiet = options
        (quiet.eventsUrl, quiet.awardUrl, quiet.eventFault, quiet.trace, quiet.now) = (nil, nil, nil, false, 0)
        var silent = context
        (silent.standardOutput, silent.standardError) = (CapturedOutput(), CapturedOutput())
        let flow = try CheckoutFlow(command, options: quiet, catalog: catalog, context: silent)
        defer { flow.close() }
        let played = flow.initialized ? try span(flow) : 0
        var placed = options
        // To the nearest second, the clock's own second taken at its middle.
        placed.now = max(0, (context.clock() * 1000 + 1000 - played - extra) / 1000)
        return placed
    }

    /// How long `count` checkouts the player ends as `player` take on the run's clock, in
    /// milliseconds: the first two played, the rest each as long as the second.
    func span(of player: PlayerAction, count: Int) throws(CLIError) -> Int {
        try checkout(player)
        let first = sdk.elapsedMilliseconds
        guard count > 1 else { return first }
        try checkout(player)
        let step = sdk.elapsedMilliseconds - first
        let (rest, overflow) = step.multipliedReportingOverflow(by: count - 1)
        return overflow || rest > Int.max - first ? Int.max / 2 : first + rest
    }
}
