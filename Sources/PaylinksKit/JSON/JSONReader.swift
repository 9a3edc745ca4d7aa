/// Why a well-formed JSON document does not have the shape a reader expects.
public struct JSONShapeError: Error, Equatable, Sendable {
    /// The byte offset of the offending value.
    public var offset: Int
    /// Where the value sits in the document, as a path: `offers[2].items[0].sku`.
    public var path: String
    /// What was wrong, in a phrase.
    public var reason: String
}

/// A typed, strict view of one ``JSONValue`` and its path in the document.
///
/// Readers turn JSON into models one field at a time and say exactly where a value is
/// missing, of the wrong type, or unknown, so a typo in a hand-written file is caught
/// instead of silently ignored.
public struct JSONReader {
    /// The value read.
    public let value: JSONValue
    /// Its path from the document's root; empty for the root.
    public let path: String

    /// Reads a document's root value.
    public init(root value: JSONValue) {
        self.value = value
        self.path = ""
    }

    private init(value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    /// An error about this value.
    public func error(_ reason: String) -> JSONShapeError {
        JSONShapeError(offset: value.offset, path: path, reason: reason)
    }

    private func typeMismatch(_ expected: String) -> JSONShapeError {
        error("expected \(expected), got \(value.typeDescription)")
    }

    /// The value as a string.
    public func string() throws(JSONShapeError) -> String {
        guard case .string(let text) = value.kind else { throw typeMismatch("a string") }
        return text
    }

    /// The value as a string that is not empty.
    public func nonEmptyString() throws(JSONShapeError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw error("must not be empty") }
        return text
    }

    /// The value as a Boolean.
    public func bool() throws(JSONShapeError) -> Bool {
        guard case .bool(let flag) = value.kind else { throw typeMismatch("true or false") }
        return flag
    }

    /// The value as a whole number within `range`.
    public func int(in range: ClosedRange<Int>) throws(JSONShapeError) -> Int {
        guard case .number(let text) = value.kind else { throw typeMismatch("a whole number") }
        guard let number = Int(text) else {
            let isIntegral = !text.contains(".") && !text.contains("e") && !text.contains("E")
            throw error(isIntegral ? "\(text) is too large" : "expected a whole number, got \(text)")
        }
        guard range.contains(number) else {
            throw error("\(number) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The value as a number within `range`.
    public func double(in range: ClosedRange<Double>) throws(JSONShapeError) -> Double {
        guard case .number(let text) = value.kind else { throw typeMismatch("a number") }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw error("\(text) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The elements of an array, each with its path.
    public func array() throws(JSONShapeError) -> [JSONReader] {
        guard case .array(let elements) = value.kind else { throw typeMismatch("an array") }
        return elements.enumerated().map { JSONReader(value: $1, path: "\(path)[\($0)]") }
    }

    /// The members of an object whose keys are free (a map), each with its path.
    public func members() throws(JSONShapeError) -> [(key: String, value: JSONReader)] {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        return members.map { ($0.key, JSONReader(value: $0.value, path: child($0.key))) }
    }

    /// The value as an object whose keys must all be among `keys`.
    ///
    /// - Throws: for a key outside the list, suggesting the closest known key, so a
    ///   misspelled field is reported rather than ignored.
    public func object(keys: [String]) throws(JSONShapeError) -> JSONObjectReader {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        var byKey: [String: JSONReader] = [:]
        for member in members {
            guard keys.contains(member.key) else {
                let hint =
                    Suggestion.closest(to: member.key, among: keys).map { "; did you mean \"\($0)\"?" }
                    ?? " (known keys: \(keys.joined(separator: ", ")))"
                throw JSONShapeError(
                    offset: member.value.offset,
                    path: child(member.key),
                    reason: "unknown key \"\(member.key)\"\(hint)"
                )
            }
            byKey[member.key] = JSONReader(value: member.value, path: child(member.key))
        }
        return JSONObjectReader(owner: self, readers: byKey)
    }

    private func child(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}

/// An object whose keys were checked by ``JSONReader/object(keys:)``.
public struct JSONObjectReader {
    fileprivate let owner: JSONReader
    fileprivate let readers: [String: JSONReader]

    /// The reader of a key that must be present (null counts as absent).
    public func required(_ key: String) throws(JSONShapeError) -> JSONReader {
        guard let reader = optional(key) else { throw owner.error("missing required key \"\(key)\"") }
        return reader
    }

    /// The reader of an optional key, or nil when the key is absent or null.
    public func optional(_ key: String) -> JSONReader? {
        guard let reader = readers[key] else { return nil }
        if case .null = reader.value.kind { return nil }
        return reader
    }
}
