import PaylinksAppcharge
import PaylinksFixtures
import PaylinksKit
import PaylinksSandbox

/// Turns a command line into an ``Invocation``: a pure function of its arguments.
///
/// The syntax it accepts:
/// - `paylinks COMMAND [OPTION...]`, where COMMAND is one of ``Command``'s (`init`,
///   `purchase`, `run`, `serve` ...); `paylinks help [COMMAND]`; `paylinks --help`;
///   `paylinks --version`. Some commands take operands too: `errors` one code or name to
///   explain, `run` scenario files, `check-award` a URL, `completions` a shell.
/// - An option's value follows it as the next argument (`--sku starter_pack_001`) or
///   after an equals sign (`--sku=starter_pack_001`). A separate value may not start
///   with `--`; use the `=` form for such a value.
/// - `-h` or `--help` anywhere before `--` asks for the subcommand's help, and `-V` or
///   `--version` for the version, whatever else the line holds. `paylinks help help` and
///   `paylinks help --help` show the overview.
/// - Each option may be given once; `--json` and `--format` set the same thing and count
///   as one option.
/// - `--` ends the options: what follows is an argument even if it starts with `-`; for
///   `serve`, what follows is the command it runs (`serve --port 0 -- make test`), never
///   read as paylinks' options.
package enum ArgumentParser {
    /// Parses `arguments`, the first of which is the program's name and is ignored.
    package static func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        let words = Array(arguments.dropFirst())
        guard let first = words.first else {
            throw .usage("no command given; try 'paylinks purchase --sku starter_pack_001'", command: nil)
        }
        switch first {
        case "-h", "--help":
            return .help(nil)
        case "--version", "-V":
            return .version
        case "help":
            return try parseHelp(Array(words.dropFirst()))
        default:
            break
        }
        guard let command = Command.named(first) else {
            if first.hasPrefix("-") { throw .usage(misplacedOptionMessage(first), command: nil) }
            throw .usage(unknownCommandMessage(first), command: nil)
        }
        let rest = Array(words.dropFirst())
        let options = rest.prefix(while: { $0 != "--" })
        if let flag = options.first(where: { helpFlags.contains(split($0).0) || versionFlags.contains(split($0).0) }) {
            let (name, value) = split(flag)
            if value != nil { throw .usage("\(name) takes no value; give it alone", command: command) }
            return helpFlags.contains(name) ? .help(command) : .version
        }
        return .run(command, try parseOptions(rest, for: command))
    }

    /// The flags that ask for help, and for the version, wherever they stand before `--`:
    /// two each, searched in place rather than hashed into sets built at every start.
    static let helpFlags = ["-h", "--help"]
    static let versionFlags = ["-V", "--version"]

    /// `paylinks help [COMMAND]`: `help help` and `help --help` are the overview, which
    /// explains `help`; `help purchase --help` is the help of `purchase`.
    private static func parseHelp(_ words: [String]) throws(CLIError) -> Invocation {
        let topics = words.filter { !helpFlags.contains($0) }
        guard let topic = topics.first, topic != "help" || topics.count > 1 else { return .help(nil) }
        guard let command = Command.named(topic) else {
            if topic.hasPrefix("-") {
                throw .usage(
                    "'help' takes a command, not the option '\(MessageText.sanitized(topic))'; "
                        + "as in 'paylinks help purchase'", command: nil)
            }
            throw .usage(unknownCommandMessage(topic), command: nil)
        }
        if topics.count > 1 {
            throw .usage("'help' takes one command, not '\(MessageText.sanitized(topics[1]))'", command: nil)
        }
        return .help(command)
    }

    /// An option before any command: a misspelt `--help` or `--version`, or a command's
    /// option given without its command.
    private static func misplacedOptionMessage(_ word: String) -> String {
        let (name, value) = split(word)
        let shown = MessageText.sanitized(word)
        if value != nil, helpFlags.contains(name) || versionFlags.contains(name) {
            return "\(name) takes no value; give it alone"
        }
        if let spec = OptionSpec.all.first(where: { $0.name == name }), let command = spec.commands.first {
            let sku = Command.checkouts.contains(command) && spec.name != "--sku" ? " --sku starter_pack_001" : ""
            let value = spec.placeholder.map { " \($0)" } ?? ""
            return "\(spec.name) must follow a command, as in 'paylinks \(command.rawValue)\(sku) \(spec.name)\(value)'"
        }
        if let meant = Suggestion.closest(to: name, among: ["-h", "--help", "-V", "--version"]) {
            return "unknown option '\(shown)'" + Suggestion.didYouMean(meant, quoted: .single)
        }
        return "unknown option '\(shown)': before a command, paylinks takes only --help and --version"
    }

    private static func unknownCommandMessage(_ word: String) -> String {
        let names = Command.allCases.map(\.rawValue) + ["help"]
        let hint =
            Suggestion.hint(for: word, among: names, quoted: .single)
            ?? "; commands: " + names.joined(separator: ", ")
        return "unknown command '\(MessageText.sanitized(word))'\(hint)"
    }

    private static func parseOptions(_ words: [String], for command: Command) throws(CLIError) -> RunOptions {
        var options = RunOptions()
        var seenGroups: [String: String] = [:]
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" && command == .serve {
                guard index < words.count else {
                    throw .usage(
                        "'--' starts the command serve runs once it listens, but none follows; as in "
                            + "'paylinks serve --port 0 -- make test'", command: command)
                }
                options.command = Array(words[index...])
                break
            }
            if word == "--" {
                guard command.operands != nil || index == words.count else {
                    throw .usage(
                        "\(command.rawValue) takes no arguments, but '\(MessageText.sanitized(words[index]))' follows '--'",
                        command: command)
                }
                options.operands += words[index...]
                break
            }
            guard word.hasPrefix("--") else {
                guard command.operands != nil, !word.hasPrefix("-") || word == "-" else {
                    throw .usage(unexpectedArgumentMessage(word, command: command), command: command)
                }
                options.operands.append(word)
                continue
            }
            let (name, inlineValue) = split(word)
            let spec = try lookUp(name, for: command)
            if let earlier = seenGroups[spec.group], !spec.repeatable {
                let what =
                    earlier == spec.name ? "\(spec.name) is given twice" : "\(spec.name) and \(earlier) are both given"
                throw .usage("\(what); give it once", command: command)
            }
            seenGroups[spec.group] = spec.name
            let value: String
            if spec.placeholder == nil {
                guard inlineValue == nil else { throw .usage("\(spec.name) takes no value", command: command) }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count, !words[index].hasPrefix("--") else {
                    throw .usage(
                        "\(spec.name) needs a value, as in '\(spec.name) \(spec.placeholder ?? "VALUE")'",
                        command: command)
                }
                value = words[index]
                index += 1
            }
            do {
                try spec.apply(value, to: &options)
            } catch {
                throw .usage(error.message, command: command)
            }
            if !spec.traits.contains(.stopsAtCopies) {
                options.passedOn.append(spec.placeholder == nil ? spec.name : "\(spec.name)=\(value)")
            }
        }
        // Each player once, told apart byte for byte, in one pass over however many were given.
        options.blockedPlayers = BlockedPlayers.unique(options.blockedPlayers)
        if Command.checkouts.contains(command), options.sku == nil {
            throw .usage(
                "\(command.rawValue) needs --sku, as in 'paylinks \(command.rawValue) --sku starter_pack_001'",
                command: command)
        }
        if let (placeholder, count) = command.operands, !count.contains(options.operands.count) {
            let message =
                options.operands.count < count.lowerBound
                ? "\(command.rawValue) needs \(placeholder), as in 'paylinks \(command.rawValue) \(placeholder)'"
                : "\(command.rawValue) takes one \(placeholder), but got \(options.operands.count): "
                    + options.operands.map { "'\(MessageText.sanitized($0))'" }.joined(separator: ", ")
            throw .usage(message, command: command)
        }
        if command == .trigger {
            do {
                options.triggerEvent = try triggerEvent(options)
            } catch {
                throw .usage(error.message, command: command)
            }
        }
        do {
            options.target = try SDKTarget(platform: options.platform ?? .ios, version: options.sdkVersion)
        } catch {
            throw .usage("--sdk-version: \(error)", command: command)
        }
        if let mode = options.browserMode, !BrowserMode.modes(on: options.target.platform).contains(mode) {
            let platform = options.target.platform.displayName
            throw .usage(
                "--browser-mode \(mode.rawValue): \(platform) opens the checkout in "
                    + BrowserMode.modes(on: options.target.platform).map(\.rawValue).joined(separator: " or "),
                command: command)
        }
        if let problem = OptionSpec.matrixVersionProblem(in: options) { throw .usage(problem, command: command) }
        if let conflict = conflict(in: options, seen: seenGroups, command: command) {
            throw .usage(conflict, command: command)
        }
        return options
    }

    /// Options that cannot go together, or one that needs another.
    private static func conflict(in options: RunOptions, seen: [String: String], command: Command) -> String? {
        if options.failAt != nil && options.error == nil {
            return "--fail-at says which step --error fails; give --error CODE too"
        }
        if options.error != nil {
            if let cause = OptionSpec.firstNamed(.endsFlow, where: { seen[$0] != nil }) {
                return "give either --error or \(cause): both decide how the flow ends"
            }
        }
        let lastIndex = options.index + options.count - 1
        if lastIndex > OptionSpec.maximumIndex {
            return
                "--index \(options.index) with --count \(options.count) reaches checkout \(lastIndex), past the last "
                + "one with a unique order id (\(OptionSpec.maximumIndex)); lower --index or --count"
        }
        // A scenario may name its own awardUrl; a purchase has only --award-url.
        // --concurrency loads the events instead when there is no award to load.
        if command == .purchase, options.awardUrl == nil,
            let orphan = OptionSpec.firstNamed(
                .awardSending,
                where: {
                    seen[$0] != nil && !($0 == "--concurrency" && options.eventsUrl != nil)
                })
        {
            return "\(orphan) goes with --award-url, which names the endpoint that receives the awards"
        }
        // trigger shows its events without an endpoint; purchase and cancel send none; a
        // scenario may name its own eventsUrl.
        if ![.trigger, .run, .checkEvents, .checkBooks].contains(command), options.eventsUrl == nil,
            let orphan = OptionSpec.firstNamed(.eventsSending, where: { seen[$0] != nil })
        {
            return "\(orphan) goes with --events-url, which names the endpoint that receives the events"
        }
        if let fault = options.eventFault, [.dropFirst, .delay].contains(fault), options.eventsUrl == nil {
            return "--fault \(fault.rawValue) acts on the way to the game's server; give --events-url too"
        }
        if options.concurrency > 1 && options.trace && options.awardUrl != nil {
            return "--trace follows each award as it goes, one checkout at a time; --concurrency sends many at once: "
                + "give one of them"
        }
        if options.concurrency > 1 && options.awardUrl != nil && options.eventsUrl != nil && command == .purchase {
            return "--concurrency sends a load, and with both --award-url and --events-url the checkouts run one "
                + "after another, each order's events after its award's answer: leave out --concurrency or one URL"
        }
        if options.concurrency > 1 && options.awardWait == .real {
            return "--concurrency sends awards at once, retries included; --award-wait real goes with one connection"
        }
        if command == .pricePoints && options.target.generation == .g3 {
            return PricePointsRemoved.message(options.target)
        }
        if command == .initialize && options.target.generation == .g3 && seen["--customer-id"] != nil {
            return "--customer-id: \(options.target) initializes without a customer id, which it takes at "
                + "openCheckout instead: leave --customer-id out of init, or give it to purchase or cancel"
        }
        if options.format == .wire && !OptionSpec.callbackCommands.contains(command) {
            return "--format wire shows callbacks as the platform delivers them; \(command.rawValue) prints none: "
                + "use text or json"
        }
        // A scenario run may cross platforms: there the language applies to its iOS scenarios.
        if options.language == .objc && options.target.platform != .ios && command != .run {
            return "--language objc is the iOS delegate's Objective-C face; \(options.target.platform.displayName) "
                + "has none: leave --language out, or use --platform ios"
        }
        if command == .serve && options.clockMode == .wall && options.now != nil {
            return "--now sets where a virtual clock starts; the wall clock is always now: add --clock virtual"
        }
        if command == .serve && options.clockMode == .virtual,
            let wait = ["--award-wait", "--events-wait"].first(where: { seen[$0] != nil })
        {
            return "--clock virtual holds each retry until the clock passes it; leave \(wait) out"
        }
        // Link Out's own refusals first: --lose-session's advice would not hold without the SDK.
        if let problem = LinkOutFlow.problem(in: options, seen: seen) { return problem }
        if options.losesSession && options.browserMode != .external {
            return "--lose-session happens in an external browser; add --browser-mode external"
        }
        if options.losesSession && seen["--outcome"] != nil {
            return "give either --outcome or --lose-session: both decide how the flow ends"
        }
        if options.beforeOrder && options.closeMethod != nil {
            return "give either --before-order or --via: the player closes the checkout once"
        }
        return nil
    }

    /// The event `trigger EVENT` leads to, with `--result`, and `--amount` checked against it.
    private static func triggerEvent(_ options: RunOptions) throws(UsageProblem) -> OrderEvent.Name {
        let typed = options.operands.first ?? ""
        let names = OrderEvent.Name.v2Names
        // Event names and results are names Appcharge chose: read in any case, as other fixed values are.
        guard let given = names.first(where: { $0.lowercased() == typed.lowercased() }) else {
            if let v1 = OrderEvent.Name.allCases.first(where: { $0.v1Name.lowercased() == typed.lowercased() }) {
                throw UsageProblem(
                    "'\(MessageText.sanitized(typed))' is the V1 name of \(v1.v2Name); trigger takes V2 names: "
                        + "'paylinks trigger \(v1.v2Name)\(v1.result.map { " --result \($0)" } ?? "")', "
                        + "with --events-version v1 for V1 payloads")
            }
            throw UsageProblem(
                "unknown event '\(MessageText.sanitized(typed))'; events: \(names.joined(separator: ", "))",
                suggestion: Suggestion.closest(to: typed, among: names))
        }
        let results = OrderEvent.Name.results(of: given)
        if results.isEmpty, let result = options.result {
            throw UsageProblem(
                "\(given) has no result, but --result is '\(MessageText.sanitized(result))'; --result goes with "
                    + "order.payment.resolved (success, failed) and order.dispute.resolved (won, lost)")
        }
        let typedResult = options.result ?? (given == "order.dispute.resolved" ? "lost" : results.first)
        let result = typedResult.map { typed in results.first { $0.lowercased() == typed.lowercased() } ?? typed }
        if let result, !results.contains(result) {
            throw UsageProblem(
                "--result for \(given) takes \(results.joined(separator: " or ")), not '\(MessageText.sanitized(result))'",
                suggestion: Suggestion.closest(to: result, among: results))
        }
        guard let event = OrderEvent.Name(v2Name: given, result: result) else {
            throw UsageProblem("unknown event '\(MessageText.sanitized(given))'")
        }
        if options.eventFault == .reorder && event == .created {
            throw UsageProblem(
                "--fault reorder sends the event before the one it follows; order.created follows none: "
                    + "trigger a later event, such as order.completed")
        }
        if options.refundAmount != nil && event != .refunded {
            throw UsageProblem("--amount makes a refund partial; it goes with order.refunded, not \(given)")
        }
        return event
    }

    /// `--name=value` → (`--name`, `value`); `--name` → (`--name`, nil).
    private static func split(_ word: String) -> (String, String?) {
        // In ASCII each byte is a character: the sign is found among the bytes, without
        // telling the characters apart.
        let equals =
            word.utf8.allSatisfy { $0 < 0x80 }
            ? word.utf8.firstIndex(of: UInt8(ascii: "=")) : word.firstIndex(of: "=")
        guard let equals else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private static func lookUp(_ name: String, for command: Command) throws(CLIError) -> OptionSpec {
        if let spec = OptionSpec.all.first(where: { $0.name == name && $0.commands.contains(command) }) {
            return spec
        }
        let accepted = OptionSpec.options(for: command)
        if let other = OptionSpec.all.first(where: { $0.name == name }) {
            let owners = other.commands.map(\.rawValue).joined(separator: " and ")
            throw .usage("\(name) is not an option of \(command.rawValue); it belongs to \(owners)", command: command)
        }
        let hint =
            Suggestion.hint(for: name, among: accepted.map(\.name) + ["--help"], quoted: .single)
            ?? ""
        throw .usage("unknown option '\(MessageText.sanitized(name))' for \(command.rawValue)\(hint)", command: command)
    }

    private static func unexpectedArgumentMessage(_ word: String, command: Command) -> String {
        let shown = MessageText.sanitized(word)
        if word.hasPrefix("-") {
            return "unknown option '\(shown)' for \(command.rawValue); options start with '--'"
        }
        if Command.checkouts.contains(command) {
            return "unexpected argument '\(shown)'; give the offer as '--sku \(shown)'"
        }
        if command == .serve {
            return "serve takes no arguments, but got '\(shown)'; to run a command beside the sandbox, put it after "
                + "'--': paylinks serve [options] -- \(shown) ..."
        }
        return "\(command.rawValue) takes no arguments, but got '\(shown)'"
    }
}
