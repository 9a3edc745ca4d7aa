import PaylinksFixtures
import PaylinksKit

/// The faults a `check-books` history may put on its steps, as `--faults` names them: on
/// the way of events (`duplicate`, `reorder`, `drop-first`, `delay`) and of awards
/// (`award-drop-first`, `award-drop`, `award-answer-lost-first`, `award-answer-lost`,
/// `award-late`), or `all` of them (the default), or `none`.
struct BooksFaults: Equatable, Sendable, CustomStringConvertible {
    /// The faults on the way of events that steps may carry.
    var events: Set<ScenarioStep.EventFault>
    /// The faults on the way of awards that steps may carry.
    var awards: Set<ScenarioStep.AwardFault>

    /// Every fault: the default.
    static let all = BooksFaults(
        events: Set(ScenarioStep.EventFault.allCases), awards: Set(ScenarioStep.AwardFault.allCases))
    /// No fault at all.
    static let none = BooksFaults(events: [], awards: [])

    /// The names `--faults` takes, in the order its help lists them.
    static let names =
        ScenarioStep.EventFault.allCases.map(\.rawValue) + ScenarioStep.AwardFault.allCases.map(name(of:))
        + ["all", "none"]

    /// The name of an award's fault on the command line: `award-late`.
    static func name(of fault: ScenarioStep.AwardFault) -> String { "award-" + fault.rawValue }

    /// The faults on the way of events that are enabled, in a fixed order, for seeded draws.
    var eventFaults: [ScenarioStep.EventFault] { ScenarioStep.EventFault.allCases.filter(events.contains) }
    /// The faults on the way of awards that are enabled, in a fixed order, for seeded draws.
    var awardFaults: [ScenarioStep.AwardFault] { ScenarioStep.AwardFault.allCases.filter(awards.contains) }

    /// The faults as `--faults` takes them: `all`, `none`, or the names enabled, in the
    /// order of ``names``.
    var description: String {
        if self == .all { return "all" }
        if self == .none { return "none" }
        return (eventFaults.map(\.rawValue) + awardFaults.map(Self.name(of:))).joined(separator: ",")
    }

    /// Reads `--faults`: a comma-separated list of fault names in any case, or `all` or
    /// `none` alone. A word it does not know is refused with the nearest name and the list.
    static func parse(_ text: String) throws(UsageProblem) -> BooksFaults {
        // "duplicate, reorder", as a list is often typed in quotes, reads as "duplicate,reorder".
        let words = text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            var word = word.drop { $0 == " " }
            while word.last == " " { word = word.dropLast() }
            return String(word)
        }
        var faults = BooksFaults.none
        var seen: [String] = []
        for word in words {
            guard !word.isEmpty else {
                throw UsageProblem(
                    "--faults has an empty name in '\(MessageText.sanitized(text))'; "
                        + "as in '--faults duplicate,award-late'")
            }
            guard let name = names.first(where: { $0.lowercased() == word.lowercased() }) else {
                throw UsageProblem(
                    "--faults has no fault '\(MessageText.sanitized(word))'; faults: \(names.joined(separator: ", "))",
                    suggestion: ScenarioStep.AwardFault(rawValue: word.lowercased()).map(name(of:))
                        ?? Suggestion.closest(to: word, among: names))
            }
            guard !seen.contains(name) else {
                throw UsageProblem("--faults lists '\(name)' twice; give it once")
            }
            seen.append(name)
            if let fault = ScenarioStep.EventFault(rawValue: name) {
                faults.events.insert(fault)
            } else if let fault = ScenarioStep.AwardFault.allCases.first(where: { Self.name(of: $0) == name }) {
                faults.awards.insert(fault)
            } else if words.count > 1 {
                throw UsageProblem("--faults takes '\(name)' alone, not in a list with other faults")
            } else {
                faults = name == "all" ? .all : .none
            }
        }
        return faults
    }
}
