public import PaylinksKit

extension Catalog {
    /// "unknown status code 3008; the nearest are 3007 ..., 3006 ...".
    public func unknownStatusCodeMessage(_ text: String) -> String {
        let shown = MessageText.sanitized(text)
        if let number = Int(text) {
            if let generation = generationNote(number) { return generation }
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

    /// Why G3 differs about `code`, where it does: a code only G3 sends, asked of another
    /// table, or a code G3 dropped, asked of G3's.
    private func generationNote(_ code: Int) -> String? {
        let added = g3StatusCodes.filter { !$0.callbacks.isEmpty }
        let isG3 = added.allSatisfy { change in statusCodes.contains { $0.code == change.code } }
        if let dropped = g3StatusCodes.first(where: { $0.code == code && $0.callbacks.isEmpty }), isG3 {
            let why =
                code == 2003
                ? ": its initialize takes no customer id, and an empty one given to openCheckout fails with "
                    + "8002 EMPTY_CUSTOMER_ID (see 'paylinks errors 8002 --sdk-version 2.0')"
                : ""
            return "\(code) is not a code of G3 (\(dropped.name); SDK 2.0 and later)\(why); "
                + "without --sdk-version, 'paylinks errors \(code)' explains it"
        }
        if !isG3, !statusCodes.contains(where: { $0.code == code }),
            let only = added.first(where: { $0.code == code })
        {
            let alsoG1 = g1StatusCodes.contains { $0.code == code }
            return "\(code) is a code of \(alsoG1 ? "G1 and G3" : "G3") (\(only.name); G3 is SDK 2.0 and later, "
                + "Unity 3.0): give --sdk-version 2.0, as in 'paylinks errors \(code) --sdk-version 2.0'"
        }
        return nil
    }
}
