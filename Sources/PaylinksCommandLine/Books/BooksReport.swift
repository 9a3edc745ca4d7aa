import PaylinksAppcharge
import PaylinksFixtures
import PaylinksJSON
import PaylinksKit

/// What `check-books` says: one line per finding, with the scenario it shrank to, and a
/// summary; as text, or as NDJSON (`--json`), one object a line.
struct BooksReport {
    /// A difference found, in the history that showed it.
    struct Finding {
        /// The difference.
        var finding: BooksFinding
        /// The player's whole history.
        var scenario: Scenario
        /// What it shrank to, for the first finding of each invariant.
        var shrunk: Shrunk?
    }

    /// A history shrunk: the scenario left, the finding its last replay showed (nil when the
    /// last replay no longer showed it), and what shrinking took.
    struct Shrunk {
        /// Where a written scenario's clock starts: 2026-01-01, long past, so that every
        /// request a run of it sends is signed at the wall clock, inside the game's window.
        static let writtenNow = 1_767_225_600

        var scenario: Scenario
        var finding: BooksFinding?
        var replays: Int
        var milliseconds: Int
    }

    var findings: [Finding]
    var tally: BooksTally
    var players: Int
    /// The scenario files written, in the order of the shrunk findings.
    var written: [String]

    /// The report as text: a line per finding, and the summary.
    func text(color: Bool) -> String {
        var lines: [String] = []
        var files = written.makeIterator()
        for found in findings {
            let fail = color ? "\u{1B}[31mFAIL\u{1B}[0m" : "FAIL"
            lines.append(MessageText.oneLine("\(fail)  \(found.finding.line)"))
            if let shrunk = found.shrunk {
                let file = files.next().map { "; written to \($0)" } ?? ""
                let steps = shrunk.scenario.steps.map(Self.describe).joined(separator: ", ")
                let still = shrunk.finding == nil ? " (its last replay no longer showed it)" : ""
                lines.append(
                    MessageText.oneLine(
                        "      shrunk to \(Self.count(shrunk.scenario.steps.count, "step")) in "
                            + "\(Self.count(shrunk.replays, "replay"))\(still): \(steps)\(file)"))
            }
        }
        lines.append(summary(color: color))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `10000 orders, 500 players, $49,900.00 paid, $3,000.00 refunded, $120.00 lost in
    /// disputes: books balance`: the same bytes for the same seed, so no time is in it.
    func summary(color: Bool) -> String {
        let money =
            "\(Self.count(tally.orders, "order")), \(Self.count(players, "player")), \(Self.dollars(tally.paid)) paid, "
            + "\(Self.dollars(tally.refunded)) refunded, \(Self.dollars(tally.disputed)) lost in disputes"
        guard !findings.isEmpty else {
            let balance = color ? "\u{1B}[32mbooks balance\u{1B}[0m" : "books balance"
            return "\(money): \(balance)"
        }
        var counts: [(BooksFinding.Invariant, Int)] = []
        for invariant in BooksFinding.Invariant.allCases {
            let number = findings.filter { $0.finding.invariant == invariant }.count
            if number > 0 { counts.append((invariant, number)) }
        }
        let kinds = counts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        return "\(money): \(Self.count(findings.count, "finding")) (\(kinds))"
    }

    /// The report as NDJSON: a `finding` object per finding, then a `summary`.
    var lines: String {
        var text = ""
        var files = written.makeIterator()
        for found in findings {
            var line = JSONWriter()
            line.openObject()
            line.field("type", "finding")
            let finding = found.finding
            line.field("invariant", finding.invariant.rawValue)
            line.field("player", finding.player)
            line.field("sku", finding.sku)
            line.field("expected", finding.expected)
            line.field("held", finding.held)
            line.key("order")
            if let order = finding.order { line.string(order.purchaseId) } else { line.null() }
            line.key("stakeUsd")
            if let cents = finding.order?.usdCents { line.string(Self.plain(cents)) } else { line.null() }
            line.key("orders")
            line.openArray()
            for order in finding.orders { line.string(order) }
            line.closeArray()
            if let step = Int(finding.step) { line.field("step", step) } else { line.field("step", finding.step) }
            line.field("kind", finding.kind)
            if let shrunk = found.shrunk {
                line.key("shrunk")
                line.openObject()
                line.key("steps")
                line.openArray()
                for step in shrunk.scenario.steps { line.string(Self.describe(step)) }
                line.closeArray()
                line.field("replays", shrunk.replays)
                line.field("stillFails", shrunk.finding != nil)
                line.key("file")
                if let file = files.next() { line.string(file) } else { line.null() }
                line.closeObject()
            }
            line.closeObject()
            text += line.line
        }
        var summary = JSONWriter()
        summary.openObject()
        summary.field("type", "summary")
        summary.field("orders", tally.orders)
        summary.field("players", players)
        summary.field("paidUsd", Self.plain(tally.paid))
        summary.field("refundedUsd", Self.plain(tally.refunded))
        summary.field("lostInDisputesUsd", Self.plain(tally.disputed))
        summary.field("findings", findings.count)
        summary.field("balance", findings.isEmpty)
        summary.closeObject()
        return text + summary.line
    }

    /// What the run's times were, for standard error: how long the ledger took to show what
    /// the books said (`settle`, in milliseconds), and how long each shrinking took.
    /// `lasting` is the wait in seconds a difference outlasted, when one did.
    func timing(settle: Int, lasting: Int?) -> String {
        var lines = [
            settle == 0
                ? "note: the ledger showed every change at the first reading after the answers"
                : "note: the ledger showed every change within \(LedgerReading.shown(milliseconds: settle)) of the answers"
        ]
        if let lasting {
            lines.append(
                "note: a difference lasted the whole --ledger-wait of \(lasting) s; if the game's ledger settles later "
                    + "than that, give a longer --ledger-wait")
        }
        for found in findings {
            guard let shrunk = found.shrunk else { continue }
            lines.append(
                MessageText.oneLine(
                    "note: shrinking \(found.finding.invariant.rawValue) (player \(found.finding.player)) took "
                        + "\(LedgerReading.shown(milliseconds: shrunk.milliseconds)) and "
                        + "\(Self.count(shrunk.replays, "replay"))"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A step as a finding shows it: `purchase starter_pack_001 (award late)`.
    static func describe(_ step: ScenarioStep) -> String {
        var words = [step.kind.rawValue]
        switch step.action {
        case .checkout(let checkout): words.append(checkout.sku)
        case .refund(let amount, let outcome):
            if let amount { words.append("\(amount) minor units") }
            if outcome == .failed { words.append("failed") }
        case .dispute(let outcome): words.append(outcome.rawValue)
        case .resolve(let succeeded, _): words.append(succeeded ? "succeeded" : "failed")
        case .advance(let milliseconds): words.append(LedgerReading.shown(milliseconds: milliseconds))
        case .initialize, .pricePoints, .retryAward: break
        }
        let faults = [
            step.awardFault.map { "award \($0.rawValue)" }, step.eventFault.map { "events \($0.rawValue)" },
        ].compactMap { $0 }
        return words.joined(separator: " ") + (faults.isEmpty ? "" : " (\(faults.joined(separator: ", ")))")
    }

    /// `$1,234.56`.
    static func dollars(_ cents: Int) -> String {
        let whole = String(cents / 100)
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return "$\(grouped).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }

    /// `1234.56`.
    static func plain(_ cents: Int) -> String {
        "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// The progress line of `check-books` on a terminal: orders played and findings so far,
/// rewritten in place on standard error, and cleared before the report.
@MainActor
final class BooksProgress {
    private let sink: (any OutputSink)?
    private let orders: Int
    private var shown = -1

    /// A progress line on `context`'s standard error when it is a terminal; none elsewhere.
    init(context: RunContext, orders: Int) {
        sink = context.standardErrorIsTerminal ? context.standardError : nil
        self.orders = orders
    }

    /// Shows `played` of the orders and `findings`, once a percent has passed.
    func show(played: Int, findings: Int) {
        guard let sink, orders > 0 else { return }
        let percent = played * 100 / orders
        guard percent != shown else { return }
        shown = percent
        try? sink.write("\r\u{1B}[Kcheck-books: \(played) of \(orders) orders played, \(findings) found")
    }

    /// Clears the line.
    func clear() {
        guard let sink, shown >= 0 else { return }
        try? sink.write("\r\u{1B}[K")
    }
}
