/// The reasons a request is refused, as its answer lists them: the first ``limit`` in the
/// order they were found, then one that says how many more there were. A request with ten
/// thousand wrong keys or items gets an answer of a few kilobytes, not megabytes, and the
/// reasons past the limit are counted, never written.
package struct ProblemList: Sendable {
    /// How many reasons are listed one by one.
    package static let limit = 20

    /// The reasons listed so far, at most ``limit``.
    private var listed: [String] = []
    /// How many more were found.
    private var unlisted = 0

    /// An empty list.
    package init() {}

    /// Whether nothing is wrong.
    package var isEmpty: Bool { listed.isEmpty }

    /// Notes `reason`; past the limit it is counted, and not made.
    package mutating func append(_ reason: @autoclosure () -> String) {
        if listed.count < Self.limit {
            listed.append(reason())
        } else {
            unlisted += 1
        }
    }

    /// The reasons as an answer lists them: those listed, then how many more, if any.
    package var reasons: [String] {
        guard unlisted > 0 else { return listed }
        return listed + ["and \(unlisted) more, not listed: correct these and send it again"]
    }
}
