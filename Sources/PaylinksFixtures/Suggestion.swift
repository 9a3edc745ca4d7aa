/// "Did you mean ...?" from an edit distance, for options, subcommands, SKUs and codes.
public enum Suggestion {
    /// The candidate closest to `input`, if one is close enough to be a likely typo.
    ///
    /// Comparison ignores case. A candidate qualifies when its distance is at most a
    /// third of the longer word (at least 1 when that word has three letters or more: in
    /// a shorter one, one letter of two is not a typo), or when one word starts with the
    /// other. Failing those, a candidate whose last words are the input (`refunded` for
    /// `payment_refunded`) qualifies when it is the only one.
    public static func closest(to input: String, among candidates: some Sequence<String>) -> String? {
        let needle = Array(input.lowercased().unicodeScalars)
        guard !needle.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        var endings: [String] = []
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(needle, other)
            let longer = max(needle.count, other.count)
            let limit = longer >= 3 ? max(1, longer / 3) : 0
            let isPrefix =
                other.count >= 3 && needle.count >= 3
                && (other.starts(with: needle) || needle.starts(with: other))
            if needle.count >= 3, other.count > needle.count, other.suffix(needle.count).elementsEqual(needle),
                "_.- ".unicodeScalars.contains(other[other.count - needle.count - 1])
            {
                endings.append(candidate)
            }
            guard distance <= limit || isPrefix else { continue }
            if distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate ?? (endings.count == 1 ? endings[0] : nil)
    }

    /// The Damerau-Levenshtein distance (with adjacent transpositions) between two words.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}

extension Suggestion {
    /// How a suggested value is quoted: as typed on a command line, as a JSON string, or
    /// bare (a number, a country code).
    public enum Quote: Sendable {
        /// `'purchase'`.
        case single
        /// `"purchase"`.
        case double
        /// `3002`.
        case bare
    }

    /// The one way paylinks suggests a fix: "; did you mean 'purchase'?".
    public static func didYouMean(_ meant: String, quoted quote: Quote) -> String {
        switch quote {
        case .single: "; did you mean '\(meant)'?"
        case .double: "; did you mean \"\(meant)\"?"
        case .bare: "; did you mean \(meant)?"
        }
    }

    /// "; did you mean ...?" for the candidate closest to `input`, or nil when none is close.
    public static func hint(for input: String, among candidates: some Sequence<String>, quoted quote: Quote)
        -> String?
    {
        closest(to: input, among: candidates).map { didYouMean($0, quoted: quote) }
    }
}
