public import PaylinksJSON

/// Why a well-formed JSON document does not have the shape a reader expects.
public struct JSONShapeError: Error, Equatable, Sendable {
    /// The byte offset of the offending value.
    public var offset: Int
    /// Where the value sits in the document, as a path: `offers[2].items[0].sku`.
    public var path: String
    /// What was wrong, in a phrase.
    public var reason: String
    /// Whether the problem follows from one already recorded (a required key missing
    /// because it was misspelled), so that it is not reported twice.
    public var followsEarlierProblem = false

    /// Creates an error.
    public init(offset: Int, path: String, reason: String, followsEarlierProblem: Bool = false) {
        self.offset = offset
        self.path = path
        self.reason = reason
        self.followsEarlierProblem = followsEarlierProblem
    }
}

/// The problems a reader found in one document, when it reports them all instead of
/// stopping at the first: every unknown key, and every element that fails on its own.
public final class JSONProblems {
    /// How many problems are kept; the rest are only counted.
    public let limit: Int
    /// The problems kept, in document order of discovery.
    public private(set) var errors: [JSONShapeError] = []
    /// The problems found beyond ``limit``.
    public private(set) var uncounted = 0

    /// An empty list that keeps up to `limit` problems.
    public init(limit: Int = 20) {
        self.limit = limit
    }

    /// Adds a problem, unless it follows from one already recorded.
    public func record(_ error: JSONShapeError) {
        guard !error.followsEarlierProblem else { return }
        if errors.count < limit { errors.append(error) } else { uncounted += 1 }
    }
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
    /// Where problems go when the document is read to the end; nil to stop at the first.
    fileprivate let problems: JSONProblems?

    /// Its path from the document's root, such as `offers[2].sku`; empty for the root.
    public var path: String { location.description }

    /// Reads a document's root value; with `problems`, reads on past what it can and
    /// records every problem there.
    public init(root value: JSONValue, problems: JSONProblems? = nil) {
        self.value = value
        self.location = .root
        self.problems = problems
    }

    fileprivate init(value: JSONValue, location: JSONPath, problems: JSONProblems?) {
        self.value = value
        self.location = location
        self.problems = problems
    }

    /// Runs `read`; when the reader records problems, a problem it throws is recorded and
    /// nil returned, so that reading goes on with the next part. Otherwise it rethrows.
    public func collecting<T>(_ read: () throws(JSONShapeError) -> T) throws(JSONShapeError) -> T? {
        do {
            return try read()
        } catch {
            guard let problems else { throw error }
            problems.record(error)
            return nil
        }
    }

    /// `read(reader)` when there is a reader; when the reader records problems, a problem
    /// `read` throws is recorded and nil returned, so that reading goes on past it.
    public static func collected<T>(
        _ reader: JSONReader?, _ read: (JSONReader) throws(JSONShapeError) -> T
    ) throws(JSONShapeError) -> T? {
        guard let reader else { return nil }
        return try reader.collecting { () throws(JSONShapeError) in try read(reader) }
    }

    /// What to throw when a value could not be made from parts whose problems were
    /// recorded already: it is not reported again.
    public func followingEarlierProblems() -> JSONShapeError {
        var error = error("has problems reported above")
        error.followsEarlierProblem = problems != nil
        return error
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
            let shown = Self.shortened(text)
            throw error(isIntegral ? "\(shown) is too large" : "expected a whole number, got \(shown)")
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
            throw error("\(Self.shortened(text)) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The value as a whole number from 0 to 2^64-1, the range of a seed.
    public func uint64() throws(JSONShapeError) -> UInt64 {
        guard case .number(let text) = value.kind else { throw typeMismatch("a whole number") }
        guard let number = UInt64(text), !text.hasPrefix("-") else {
            let isIntegral = !text.contains(".") && !text.contains("e") && !text.contains("E")
            let shown = Self.shortened(text)
            throw error(
                isIntegral
                    ? "\(shown) is out of range; expected 0 to \(UInt64.max)" : "expected a whole number, got \(shown)")
        }
        return number
    }

    /// A number as a message quotes it: whole up to 24 characters, else its start and its
    /// length, so that a 100,000-digit number is not repeated back whole.
    static func shortened(_ text: String) -> String {
        text.count <= 24 ? text : "\(text.prefix(12))... (a number of \(text.count) characters)"
    }

    /// The elements of an array, each with its path.
    public func array() throws(JSONShapeError) -> [JSONReader] {
        guard case .array(let elements) = value.kind else { throw typeMismatch("an array") }
        return elements.enumerated().map {
            JSONReader(value: $1, location: .index($0, in: location), problems: problems)
        }
    }

    /// The members of an object whose keys are free (a map), each with its path.
    public func members() throws(JSONShapeError) -> [(key: String, value: JSONReader)] {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        return members.map {
            ($0.key, JSONReader(value: $0.value, location: .key($0.key, in: location), problems: problems))
        }
    }

    /// The value as an object whose keys must all be among `keys`.
    ///
    /// - Throws: for a key outside the list, at the key, suggesting the closest known
    ///   key, so a misspelled field is reported rather than ignored. A reader that
    ///   records problems records every unknown key and reads the others.
    public func object(keys: [String]) throws(JSONShapeError) -> JSONObjectReader {
        guard case .object(let members) = value.kind else { throw typeMismatch("an object") }
        var misspelled: Set<String> = []
        for (index, member) in members.enumerated() where !keys.contains(member.key) {
            let meant = Suggestion.closest(to: member.key, among: keys)
            if let meant { misspelled.insert(meant) }
            let hint =
                meant.map { Suggestion.didYouMean($0, quoted: .double) }
                ?? " (known keys: \(keys.joined(separator: ", ")))"
            let error = JSONShapeError(
                offset: index < value.keyOffsets.count ? value.keyOffsets[index] : member.value.offset,
                path: JSONPath.key(member.key, in: location).description,
                reason: "unknown key \"\(member.key)\"\(hint)"
            )
            guard let problems else { throw error }
            problems.record(error)
        }
        return JSONObjectReader(
            owner: self, members: members.filter { keys.contains($0.key) }, misspelled: misspelled)
    }

    fileprivate func child(_ key: String) -> JSONPath {
        .key(key, in: location)
    }
}

/// An object whose keys were checked by ``JSONReader/object(keys:)``.
public struct JSONObjectReader {
    fileprivate let owner: JSONReader
    fileprivate let members: [(key: String, value: JSONValue)]
    /// The known keys an unknown key of the object was taken for.
    fileprivate let misspelled: Set<String>

    /// Whether the object has none of the known keys.
    public var isEmpty: Bool { members.isEmpty }

    /// The reader of a key that must be present (null counts as absent).
    public func required(_ key: String) throws(JSONShapeError) -> JSONReader {
        guard let reader = optional(key) else {
            var error = owner.error("missing required key \"\(key)\"")
            error.followsEarlierProblem = owner.problems != nil && misspelled.contains(key)
            throw error
        }
        return reader
    }

    /// The reader of an optional key, or nil when the key is absent or null.
    public func optional(_ key: String) -> JSONReader? {
        // Objects with a fixed set of keys are small: a scan beats hashing.
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        if case .null = member.value.kind { return nil }
        return JSONReader(value: member.value, location: owner.child(key), problems: owner.problems)
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
