// Finding a run of elements, for every layer of paylinks.
//
// The standard library's own `firstRange(of:)`, `replacing(_:with:)` and
// `contains(_:)` for strings live in its string-processing module; calling any of them
// links that module and its regular-expression engine, a megabyte and a half that every
// start of paylinks would load and relocate. What paylinks searches is short, so a plain
// scan serves. Like those, this compares strings by Character. The command line's
// replacing, which only it needs, is built on it (Rendering/TextReplacing.swift there).

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
}
