/// Shell-style patterns for names: `*` any text, `?` one character, `[abc]`, `[a-z]` and
/// `[!abc]` one character of a set; anything else itself. A pure function, for
/// `run --filter`.
enum Glob {
    /// Whether `name` matches `pattern` whole.
    static func matches(_ pattern: String, _ name: String) -> Bool {
        matches(Array(pattern), 0, Array(name), 0)
    }

    private static func matches(_ pattern: [Character], _ p: Int, _ name: [Character], _ n: Int) -> Bool {
        var p = p
        var n = n
        // The last `*` seen and the name position it stands at, to go back to on a mismatch.
        var star: (pattern: Int, name: Int)?
        while n < name.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p, n)
                p += 1
                continue
            }
            if p < pattern.count, let (matched, next) = one(pattern, p, name[n]), matched {
                p = next
                n += 1
                continue
            }
            guard let resume = star else { return false }
            star = (resume.pattern, resume.name + 1)
            p = resume.pattern + 1
            n = resume.name + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Whether the pattern element at `p` takes `character`, and where the next element starts.
    private static func one(_ pattern: [Character], _ p: Int, _ character: Character) -> (Bool, Int)? {
        switch pattern[p] {
        case "?":
            return (true, p + 1)
        case "[":
            var index = p + 1
            let negated = index < pattern.count && (pattern[index] == "!" || pattern[index] == "^")
            if negated { index += 1 }
            var found = false
            var first = true
            while index < pattern.count, pattern[index] != "]" || first {
                first = false
                if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                    if pattern[index] <= character && character <= pattern[index + 2] { found = true }
                    index += 3
                } else {
                    if pattern[index] == character { found = true }
                    index += 1
                }
            }
            // No closing bracket: the `[` is itself.
            guard index < pattern.count else { return (character == "[", p + 1) }
            return (found != negated, index + 1)
        default:
            return (pattern[p] == character, p + 1)
        }
    }
}
