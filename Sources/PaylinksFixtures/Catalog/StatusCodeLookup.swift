public import PaylinksKit

extension Catalog {
    /// "unknown status code 3008; the nearest are 3007 ..., 3006 ...".
    public func unknownStatusCodeMessage(_ text: String) -> String {
        let shown = MessageText.sanitized(text)
        if let number = Int(text) {
            let nearest =
                statusCodes
                .sorted { abs($0.code - number) < abs($1.code - number) }
                .prefix(3)
                .map { "\($0.code) \($0.name)" }
            return "unknown status code \(shown); the nearest are \(nearest.joined(separator: ", ")) "
                + "(list them with 'paylinks errors'; a fixture directory can add codes)"
        }
        let hint =
            Suggestion.closest(to: text, among: statusCodes.map(\.name))
            .map { Suggestion.didYouMean($0, quoted: .bare) } ?? "; list the codes with 'paylinks errors'"
        return "unknown status code '\(shown)'\(hint)"
    }
}
