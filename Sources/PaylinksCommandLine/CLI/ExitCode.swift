package import PaylinksKit

/// The exit codes paylinks ends with: the contract CI scripts branch on.
///
/// Codes 0 and 10-14 say how the simulated flow ended; 64-74 are the BSD `sysexits`
/// codes for problems with the invocation itself; 126 and 127 are the shell's, for a
/// command `serve -- CMD` cannot run. `serve -- CMD` ends with CMD's own status, which
/// may be any code: ``init(passingOn:)``.
package struct ExitCode: RawRepresentable, Hashable, CaseIterable, Sendable {
    /// The status the process ends with.
    package let rawValue: Int32

    /// One of the codes paylinks names, ``allCases``; nil for any other.
    package init?(rawValue: Int32) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// The exit status of the command `serve -- CMD` ran, passed on as paylinks' own:
    /// its code, or 128 plus the number of the signal that ended it.
    package init(passingOn status: Int32) {
        rawValue = status
    }

    private init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The codes paylinks names, in the order the help lists them.
    package static let allCases: [ExitCode] = [
        .success, .expectationsFailed, .initializeFailed, .pricePointsFailed, .purchaseFailed, .purchaseCanceled,
        .eventRefused, .usage, .dataError, .noInput, .unavailable, .software, .cannotCreate, .ioError,
        .cannotExecute, .commandNotFound, .brokenPipe,
    ]

    /// The flow ended in `onInitialized`, `onPricePointsSuccess` or `onPurchaseSuccess`.
    package static let success = ExitCode(0)
    /// `paylinks run`: an expectation of a scenario did not hold; `check-award`, `check-events`: a case failed,
    /// `check-books`: the ledger and the books differ,
    /// or the award endpoint or the ledger kept a money case of `check-events` from running.
    package static let expectationsFailed = ExitCode(1)
    /// The flow ended in `onInitializeFailed`.
    package static let initializeFailed = ExitCode(10)
    /// The flow ended in `onPricePointsFailed`.
    package static let pricePointsFailed = ExitCode(11)
    /// The flow ended in `onPurchaseFailed` with a failure.
    package static let purchaseFailed = ExitCode(12)
    /// The flow ended in `onPurchaseFailed` with a code the catalog marks as a cancel.
    package static let purchaseCanceled = ExitCode(13)
    /// The flow ended well, but the game's server refused an order event on every attempt.
    package static let eventRefused = ExitCode(14)
    /// `EX_USAGE`: unknown subcommand or option, missing or malformed value, unknown SKU or country.
    package static let usage = ExitCode(64)
    /// `EX_DATAERR`: invalid fixture data, or a `serve --data` directory that is another
    /// program's, damaged, or of a newer format, or a `serve --import` file that does not read.
    package static let dataError = ExitCode(65)
    /// `EX_NOINPUT`: a named file or directory is missing or unreadable.
    package static let noInput = ExitCode(66)
    /// `EX_UNAVAILABLE`: `serve` cannot listen on its address (the port is in use), `health`
    /// finds no sandbox answering, or nothing answers at a URL `check-award` or `check-events` audits, or the ledger breaks its contract.
    package static let unavailable = ExitCode(69)
    /// `EX_SOFTWARE`: an internal error in paylinks.
    package static let software = ExitCode(70)
    /// `EX_CANTCREAT`: `serve --data`'s directory cannot be created or written.
    package static let cannotCreate = ExitCode(73)
    /// `EX_IOERR`: output could not be written.
    package static let ioError = ExitCode(74)
    /// `serve -- CMD`: CMD was found but cannot be executed (not executable, a directory,
    /// not a program), as a shell says with 126.
    package static let cannotExecute = ExitCode(126)
    /// `serve -- CMD`: CMD was not found, as a shell says with 127.
    package static let commandNotFound = ExitCode(127)
    /// The reader of standard output went away; paylinks stops quietly, as if killed by SIGPIPE.
    package static let brokenPipe = ExitCode(141)

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
            "the flow ended in onInitialized, onPricePointsSuccess or onPurchaseSuccess; run: every expectation held; "
                + "check-books: the books balance"
        case .expectationsFailed:
            "run: a scenario's expectation did not hold; check-award, check-events: a case failed, or the award "
                + "endpoint or the ledger kept a money case from running; check-books: the game's ledger and "
                + "Appcharge's books differ; check-links: a rule of a link file is broken"
        case .initializeFailed: "onInitializeFailed"
        case .pricePointsFailed: "onPricePointsFailed"
        case .purchaseFailed: "onPurchaseFailed: a failure; link-out: status=fail"
        case .purchaseCanceled:
            "onPurchaseFailed: the player canceled (\(Self.builtInCancelCodes); a fixture may mark others), "
                + "or onPurchaseCanceled (G3); link-out: status=cancel"
        case .eventRefused: "trigger, --events-url: the game's server refused an event on every attempt"
        case .usage: "usage error: unknown command or option, bad value, unknown SKU or country"
        case .dataError:
            "invalid fixture data; serve --data: the directory is another program's, damaged or newer; serve "
                + "--import: a line of the file does not read; check-links: a file is not JSON"
        case .noInput: "a named file or directory is missing or unreadable (check-links: a link file)"
        case .unavailable:
            "serve: the address cannot be listened on (the port is in use), or --data is another sandbox's; "
                + "health: no sandbox answers; check-award, check-events, check-books: nothing answers at a URL, or the "
                + "ledger breaks its contract; check-books: the award endpoint does not grant, events are refused, or the seed "
                + "was played against the game before; check-links: nothing answers at a URL"
        case .software: "internal error"
        case .cannotCreate: "serve --data: the directory cannot be created or written"
        case .ioError: "output could not be written"
        case .cannotExecute: "serve -- CMD: CMD cannot be executed (not executable, a directory, not a program)"
        case .commandNotFound: "serve -- CMD: CMD was not found"
        case .brokenPipe: "the reader of the output went away (as SIGPIPE)"
        default: "serve -- CMD: CMD's own exit status, or 128 plus the signal that ended it"
        }
    }
}
