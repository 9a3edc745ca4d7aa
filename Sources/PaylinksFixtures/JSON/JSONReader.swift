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
    private let location: JSONPath

    /// Its path from the document's root, such as `offers[2].sku`; empty for the root.
    public var path: String { location.description }

    /// Reads a document's root value.
    public init(root value: JSONValue) {
        self.value = value
        self.location = .root
    }

    fileprivate init(value: JSONValue, location: JSONPath) {
        self.value = value
        self.location = location
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
        return elements.enumerated().map { JSONReader(value: $1, location: .index($0, in: location)) }
    }

    /// The members of an object whose keys are free (a map), each with its path.
    public func members() throws(JSONShapeError) -> [(key: String, value: JSONReader)] {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        return members.map { ($0.key, JSONReader(value: $0.value, location: .key($0.key, in: location))) }
    }

    /// The value as an object whose keys must all be among `keys`.
    ///
    /// - Throws: for a key outside the list, suggesting the closest known key, so a
    ///   misspelled field is reported rather than ignored.
    public func object(keys: [String]) throws(JSONShapeError) -> JSONObjectReader {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        for member in members {
            guard keys.contains(member.key) else {
                let hint =
                    Suggestion.hint(for: member.key, among: keys, quoted: .double)
                    ?? " (known keys: \(keys.joined(separator: ", ")))"
                throw JSONShapeError(
                    offset: member.value.offset,
                    path: JSONPath.key(member.key, in: location).description,
                    reason: "unknown key \"\(member.key)\"\(hint)"
                )
            }
        }
        return JSONObjectReader(owner: self, members: members)
    }

    fileprivate func child(_ key: String) -> JSONPath {
        .key(key, in: location)
    }
}

/// An object whose keys were checked by ``JSONReader/object(keys:)``.
public struct JSONObjectReader {
    fileprivate let owner: JSONReader
    fileprivate let members: [(key: String, value: JSONValue)]

    /// The reader of a key that must be present (null counts as absent).
    public func required(_ key: String) throws(JSONShapeError) -> JSONReader {
        guard let reader = optional(key) else { throw owner.error("missing required key \"\(key)\"") }
        return reader
    }

    /// The reader of an optional key, or nil when the key is absent or null.
    public func optional(_ key: String) -> JSONReader? {
        // Objects with a fixed set of keys are small: a scan beats hashing.
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        if case .null = member.value.kind { return nil }
        return JSONReader(value: member.value, location: owner.child(key))
    }
}

/// Where a value sits in a document, kept as links to its parent so that reading a
/// value costs no string building; the text is made only for a message.
indirect enum JSONPath: CustomStringConvertible {
    /// The document's root.
    case root
    /// A member of an object.
    case key(String, in: JSONPath)
    /// An element of an array.
    case index(Int, in: JSONPath)

    /// `offers[2].items[0].sku`; empty for the root.
    var description: String {
        switch self {
        case .root: ""
        case .key(let key, let parent):
            parent.description.isEmpty ? key : parent.description + "." + key
        case .index(let index, let parent):
            parent.description + "[\(index)]"
        }
    }
}
