// Finding and replacing a run of elements, for every layer of paylinks.
//
// The standard library's own `firstRange(of:)`, `replacing(_:with:)` and
// `contains(_:)` for strings live in its string-processing module; calling any of them
// links that module and its regular-expression engine, a megabyte and a half that every
// start of paylinks would load and relocate. What paylinks searches is short, so a plain
// scan serves. Like those, these compare strings by Character.

extension Collection where Element: Equatable {
    /// Where `pattern` first occurs, or nil; an empty pattern occurs at the start.
    package func firstOccurrence(of pattern: some Collection<Element>) -> Range<Index>? {
        guard let head = pattern.first else { return startIndex..<startIndex }
        var start = startIndex
        while let candidate = self[start...].firstIndex(of: head) {
            var index = candidate
            var patternIndex = pattern.startIndex
            while patternIndex != pattern.endIndex, index != endIndex, self[index] == pattern[patternIndex] {
                formIndex(after: &index)
                pattern.formIndex(after: &patternIndex)
            }
            if patternIndex == pattern.endIndex { return candidate..<index }
            // The text ran out first: no later start has room for the pattern either.
            if index == endIndex { return nil }
            start = self.index(after: candidate)
        }
        return nil
    }

    /// Whether `pattern` occurs.
    package func containsOccurrence(of pattern: some Collection<Element>) -> Bool {
        firstOccurrence(of: pattern) != nil
    }
}

extension RangeReplaceableCollection where Element: Equatable {
    /// A copy with every occurrence of `pattern`, left to right and not overlapping,
    /// replaced by `replacement`. An empty pattern replaces nothing.
    package func replacingEvery(_ pattern: some Collection<Element>, with replacement: some Collection<Element>)
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
