package import PaylinksKit

/// The exit codes paylinks ends with: the contract CI scripts branch on.
///
/// Codes 0 and 10-14 say how the simulated flow ended; 64-74 are the BSD `sysexits`
/// codes for problems with the invocation itself.
package enum ExitCode: Int32, CaseIterable, Sendable {
    /// The flow ended in `onInitialized`, `onPricePointsSuccess` or `onPurchaseSuccess`.
    case success = 0
    /// `paylinks run`: an expectation of a scenario did not hold; `check-award`, `check-events`: a case failed,
    /// or the award endpoint or the ledger kept a money case of `check-events` from running.
    case expectationsFailed = 1
    /// The flow ended in `onInitializeFailed`.
    case initializeFailed = 10
    /// The flow ended in `onPricePointsFailed`.
    case pricePointsFailed = 11
    /// The flow ended in `onPurchaseFailed` with a failure.
    case purchaseFailed = 12
    /// The flow ended in `onPurchaseFailed` with a code the catalog marks as a cancel.
    case purchaseCanceled = 13
    /// The flow ended well, but the game's server refused an order event on every attempt.
    case eventRefused = 14
    /// `EX_USAGE`: unknown subcommand or option, missing or malformed value, unknown SKU or country.
    case usage = 64
    /// `EX_DATAERR`: invalid fixture data, or a `serve --data` directory that is another
    /// program's, damaged, or of a newer format, or a `serve --import` file that does not read.
    case dataError = 65
    /// `EX_NOINPUT`: a named file or directory is missing or unreadable.
    case noInput = 66
    /// `EX_UNAVAILABLE`: `serve` cannot listen on its address (the port is in use), or
    /// nothing answers at a URL `check-award` or `check-events` audits, or the ledger breaks its contract.
    case unavailable = 69
    /// `EX_SOFTWARE`: an internal error in paylinks.
    case software = 70
    /// `EX_CANTCREAT`: `serve --data`'s directory cannot be created or written.
    case cannotCreate = 73
    /// `EX_IOERR`: output could not be written.
    case ioError = 74
    /// The reader of standard output went away; paylinks stops quietly, as if killed by SIGPIPE.
    case brokenPipe = 141

    /// The exit code for a flow whose last callback was `callback`; the catalog says
    /// which codes of `onPurchaseFailed` mean the player canceled.
    package init(finishingWith callback: Callback, catalog: Catalog) {
        let isCancel = callback.error.flatMap { catalog.statusCode($0.code) }?.isCancel ?? false
        self.init(finishingWith: callback.name, isCancel: isCancel)
    }

    /// The exit code for a flow whose last callback is named `callback`, carrying a code
    /// that means a cancel or not.
    package init(finishingWith callback: CallbackName, isCancel: Bool) {
        switch callback {
        case .onInitialized, .onPricePointsSuccess, .onPurchaseSuccess: self = .success
        case .onInitializeFailed: self = .initializeFailed
        case .onPricePointsFailed: self = .pricePointsFailed
        case .onPurchaseFailed: self = isCancel ? .purchaseCanceled : .purchaseFailed
        case .onPurchaseCanceled: self = .purchaseCanceled
        }
    }

    /// The built-in codes that mean a cancel, for the help: "3000, 3002, 3005".
    static var builtInCancelCodes: String {
        Catalog.builtIn.statusCodes.filter(\.isCancel).map { String($0.code) }.joined(separator: ", ")
    }

    /// One line for the help and the README: what the code means.
    package var meaning: String {
        switch self {
        case .success:
            "the flow ended in onInitialized, onPricePointsSuccess or onPurchaseSuccess; run: every expectation held"
        case .expectationsFailed:
            "run: a scenario's expectation did not hold; check-award, check-events: a case failed, or the award "
                + "endpoint or the ledger kept a money case from running"
        case .initializeFailed: "onInitializeFailed"
        case .pricePointsFailed: "onPricePointsFailed"
        case .purchaseFailed: "onPurchaseFailed: a failure"
        case .purchaseCanceled:
            "onPurchaseFailed: the player canceled (\(Self.builtInCancelCodes); a fixture may mark others), "
                + "or onPurchaseCanceled (G3)"
        case .eventRefused: "trigger, --events-url: the game's server refused an event on every attempt"
        case .usage: "usage error: unknown command or option, bad value, unknown SKU or country"
        case .dataError:
            "invalid fixture data; serve --data: the directory is another program's, damaged or newer; serve "
                + "--import: a line of the file does not read"
        case .noInput: "a named file or directory is missing or unreadable"
        case .unavailable:
            "serve: the address cannot be listened on (the port is in use), or --data is another sandbox's; "
                + "check-award, check-events: nothing answers at a URL, or the ledger breaks its contract"
        case .software: "internal error"
        case .cannotCreate: "serve --data: the directory cannot be created or written"
        case .ioError: "output could not be written"
        case .brokenPipe: "the reader of the output went away (as SIGPIPE)"
        }
    }
}
