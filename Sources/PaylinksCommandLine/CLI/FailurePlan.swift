import PaylinksFixtures
package import PaylinksKit

/// A status code to deliver, and the step of the flow that delivers it: what `--error`
/// and `--fail-at` ask for, checked against the catalog and the subcommand.
package struct FailurePlan: Equatable, Sendable {
    /// The code delivered.
    package var statusCode: StatusCode
    /// The step that fails with it.
    package var step: Step

    /// Resolves `--error` (a code or a name, any case) and `--fail-at` for `command`.
    ///
    /// - Throws: a usage error for a code the catalog does not hold (naming the nearest
    ///   ones), a code that cannot arrive on any step `command` reaches (naming the
    ///   subcommand that does), or a `--fail-at` step the code or the command cannot fail.
    package static func resolve(
        _ requested: String, failAt: Step?, command: Command, catalog: Catalog, target: SDKTarget = .standard
    ) throws(CLIError) -> FailurePlan {
        guard let statusCode = catalog.statusCode(matching: requested) else {
            throw .usage(catalog.unknownStatusCodeMessage(requested), command: command)
        }
        let label = "\(statusCode.code) (\(statusCode.name))"
        let reachable = command.steps.filter(statusCode.steps.contains)
        if let failAt {
            guard command.steps.contains(failAt) else {
                throw .usage(
                    "--fail-at \(failAt.rawValue): \(command.rawValue) does not reach that step; "
                        + "it goes \(command.steps.map(\.rawValue).joined(separator: ", "))",
                    command: command)
            }
            guard statusCode.steps.contains(failAt) else {
                throw .usage(
                    "--fail-at \(failAt.rawValue): \(label) arrives at \(describe(statusCode.steps)), not at \(failAt.rawValue)",
                    command: command)
            }
            return FailurePlan(statusCode: statusCode, step: failAt)
        }
        guard let step = reachable.last else {
            throw .usage(
                "\(label) arrives on \(statusCode.callbacks.map(\.rawValue).joined(separator: ", ")) "
                    + "at \(describe(statusCode.steps)), which \(command.rawValue) does not reach; "
                    + Reproduction.suggestion(for: statusCode, target: target),
                command: command)
        }
        return FailurePlan(statusCode: statusCode, step: step)
    }

    private static func describe(_ steps: [Step]) -> String {
        steps.count == 1 ? "the \(steps[0].rawValue) step" : steps.map(\.rawValue).joined(separator: " or ")
    }
}

/// The paylinks commands that reproduce a status code.
package enum Reproduction {
    /// The SKU examples use.
    static let exampleSku = "starter_pack_001"

    /// The commands that provoke a code from its real cause, where paylinks simulates one.
    static let realCauses: [Int: String] = [
        2001: "paylinks init --environment staging",
        2002: "paylinks init --checkout-public-key=",
        2003: "paylinks init --customer-id=",
        2004: "paylinks init --redirect-url http://example.com/return",
        3000: "paylinks cancel --sku \(exampleSku) --via browser",
        3002: "paylinks cancel --sku \(exampleSku)",
        3003: "paylinks purchase --sku \(exampleSku) --outcome declined",
        3004: "paylinks purchase --sku \(exampleSku) --outcome pending",
        3005: "paylinks cancel --sku \(exampleSku) --before-order",
        3006: "paylinks purchase --sku \(exampleSku) --session-environment production",
        3007: "paylinks purchase --sku \(exampleSku) --order-customer-id cust_12345",
    ]

    /// What `errors CODE` shows when no command reproduces a code: on G3, a code that
    /// arrives only at the price-points step, which only the library's call reaches.
    package static let noCommand = "no command: PaymentLinksSimulator.getPricePoints() in a test"

    /// What a command that does not reach `statusCode` suggests instead: the first command
    /// that delivers it with `--error` on `target` (with the options that select it), the
    /// same one `errors CODE` lists, or that no command does.
    package static func suggestion(for statusCode: StatusCode, target: SDKTarget) -> String {
        guard let step = injectedSteps(of: statusCode, on: target).first else { return Self.noCommand }
        return "use '\(injecting(statusCode.code, at: step))\(options(selecting: target))'"
    }

    /// The steps at which `--error` delivers `statusCode` on `target`: price-points refuses
    /// a G3 target, which has no price points, so only the library's getPricePoints()
    /// reaches such a code there.
    static func injectedSteps(of statusCode: StatusCode, on target: SDKTarget) -> [Step] {
        statusCode.steps.filter { target.generation != .g3 || $0 != .pricePoints }
    }

    /// The command that delivers `code` at `step` with `--error`.
    package static func injecting(_ code: Int, at step: Step) -> String {
        switch step {
        case .initialize: "paylinks init --error \(code)"
        case .pricePoints: "paylinks price-points --error \(code)"
        case .purchase: "paylinks purchase --sku \(exampleSku) --error \(code)"
        }
    }

    /// Every command that reproduces `statusCode` on `target`: its real causes first (an
    /// old code's are those of the current codes it reports), then `--error` at each step
    /// it arrives at, each with the options that select `target`.
    ///
    /// With a fixture directory (`--fixtures DIR`), each command names it, and its SKU is
    /// one of `catalog`'s offers, so that it works as printed.
    package static func commands(
        for statusCode: StatusCode, target: SDKTarget = .standard, catalog: Catalog? = nil, fixtures: String? = nil
    ) -> [String] {
        let real = ([statusCode.code] + statusCode.reports).compactMap { realCause(of: $0, on: target) }
        var options = self.options(selecting: target)
        if let fixtures { options += " --fixtures \(shellWord(fixtures))" }
        let sku =
            catalog.map { $0.offer(sku: exampleSku) == nil ? $0.offers.first?.sku ?? exampleSku : exampleSku }
            ?? exampleSku
        let steps = injectedSteps(of: statusCode, on: target)
        return (real + steps.map { injecting(statusCode.code, at: $0) }).map { command in
            let named =
                sku == exampleSku
                ? command : command.replacingEvery("--sku \(exampleSku)", with: "--sku \(shellWord(sku))")
            return named + options
        }
    }

    /// `text` as one word of a POSIX shell: as it is when it holds only safe characters,
    /// else in single quotes.
    static func shellWord(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [
                        UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
                        UInt8(ascii: "="),
                    ].contains(byte)
            }
        return safe ? text : "'" + text.replacingEvery("'", with: #"'\''"#) + "'"
    }

    /// The command that provokes `code` from its real cause on `target`, if paylinks simulates one.
    private static func realCause(of code: Int, on target: SDKTarget) -> String? {
        switch (code, target.generation) {
        // G3 takes the customer id at openCheckout: an empty one is 8002 there, not 2003.
        case (2003, .g3): nil
        case (8002, .g3): "paylinks purchase --sku \(exampleSku) --customer-id="
        default: realCauses[code]
        }
    }

    /// ` --platform unity --sdk-version 3.0`: what selects `target`, nothing for the default.
    static func options(selecting target: SDKTarget) -> String {
        let platform = target.platform == .ios ? "" : " --platform \(target.platform.rawValue)"
        let version = target == .defaultTarget(of: target.platform) ? "" : " --sdk-version \(target.version)"
        return platform + version
    }
}
