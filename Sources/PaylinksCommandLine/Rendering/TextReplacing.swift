import PaylinksKit

// Replacing a run of elements, for what the command line writes: shell words, completion
// scripts, annotations, a status code's example data, the sentinels of bulk lines.
//
// It stands in for the standard library's `replacing(_:with:)`, whose string-processing
// module every start would load and relocate, as the core's firstOccurrence(of:) does for
// `firstRange(of:)` (PaylinksKit's Formatting/Occurrences.swift); like those, it compares
// strings by Character.

extension RangeReplaceableCollection where Element: Equatable {
    /// A copy with every occurrence of `pattern`, left to right and not overlapping,
    /// replaced by `replacement`. An empty pattern replaces nothing.
    func replacingEvery(_ pattern: some Collection<Element>, with replacement: some Collection<Element>)
        -> Self
    {
        guard !pattern.isEmpty else { return self }
        var result = Self()
        var rest = self[...]
        while let range = rest.firstOccurrence(of: pattern) {
            result.append(contentsOf: rest[..<range.lowerBound])
            result.append(contentsOf: replacement)
            rest = rest[range.upperBound...]
        }
        result.append(contentsOf: rest)
        return result
    }
}
