/// A JSON value as a reader takes it apart: parsed into a tree (``JSONValue``) or read off
/// a tape (``JSONTapeValue``). A reader written once over it reads either, and says the same
/// of the same text.
package protocol JSONReadable {
    /// An array's elements, in order.
    associatedtype Elements: Sequence<Self>

    /// The JSON type's name, for messages: "a string", "an object" ...
    var typeDescription: String { get }
    /// The string, unescaped; nil for any other value.
    var stringValue: String? { get }
    /// The number exactly as written; nil for any other value.
    var numberText: String? { get }
    /// Whether the value is an object.
    var isObject: Bool { get }
    /// The array's elements; nil for any other value.
    var elements: Elements? { get }
    /// The object's member whose key is `name`, one of the reader's own names, byte for byte
    /// as RFC 8259 compares keys; nil when it has none, or is not an object.
    func member(_ name: StaticString) -> Self?
    /// The object's keys that are none of `names`, in their order; none when it is not an
    /// object.
    func keys(besides names: [StaticString]) -> [String]
    /// How many levels of objects and arrays the value nests, itself the first: 0 for a
    /// string, 1 for `[]`, 2 for `{"a": []}`.
    var nesting: Int { get }
    /// Writes the value to `sink`: members in their order, numbers as spelled.
    func write<Sink: JSONSink>(to sink: inout Sink)
    /// What the value is as a whole number (see ``WholeNumberReading``); nil when it is not
    /// a number. By default, what ``JSONValue/wholeNumberReading(_:)`` reads of
    /// ``numberText``.
    var wholeNumberReading: WholeNumberReading? { get }
}

extension JSONReadable {
    /// The value as an `Int` when it is a number whose value is whole and within `Int`'s
    /// range, however it is spelled: `499`, `499.0`, `499.00`, `4.99e2` and `4990e-1` are
    /// all 499, and `-0.0` is 0, as JSON Schema's `integer` takes them. Nil for `499.5`, for
    /// a whole number beyond `Int`, and for any value that is not a number.
    package var wholeNumber: Int? {
        guard case .whole(let number)? = wholeNumberReading else { return nil }
        return number
    }

    package var wholeNumberReading: WholeNumberReading? {
        numberText.flatMap(JSONValue.wholeNumberReading)
    }
}

extension JSONValue: JSONReadable {
    package var stringValue: String? {
        guard case .string(let text) = kind else { return nil }
        return text
    }

    package var numberText: String? {
        guard case .number(let text) = kind else { return nil }
        return text
    }

    package var isObject: Bool {
        guard case .object = kind else { return false }
        return true
    }

    package var elements: [JSONValue]? {
        guard case .array(let elements) = kind else { return nil }
        return elements
    }

    /// The member named `name`, found by a scan: the parser refused duplicate keys, and
    /// most objects have a handful of members, which a scan finds sooner than hashing would.
    package func member(_ name: StaticString) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return members.first { member in
            // Compared where the key's bytes are, not through a view of them.
            var key = member.key
            return key.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
        }?.value
    }

    package func keys(besides names: [StaticString]) -> [String] {
        guard case .object(let members) = kind else { return [] }
        return members.compactMap { member in
            var key = member.key
            let named = key.withUTF8 { key in
                names.contains {
                    UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount).elementsEqual(key)
                }
            }
            return named ? nil : member.key
        }
    }

    package var nesting: Int {
        switch kind {
        case .object(let members): 1 + (members.map { $0.value.nesting }.max() ?? 0)
        case .array(let elements): 1 + (elements.map(\.nesting).max() ?? 0)
        default: 0
        }
    }

    package func write<Sink: JSONSink>(to sink: inout Sink) {
        switch kind {
        case .null: sink.null()
        case .bool(let flag): sink.bool(flag)
        case .number(let text): sink.rawNumber(text)
        case .string(let text): sink.string(text)
        case .array(let elements):
            sink.openArray()
            for element in elements { element.write(to: &sink) }
            sink.closeArray()
        case .object(let members):
            sink.openObject()
            for (key, member) in members {
                sink.key(data: key)
                member.write(to: &sink)
            }
            sink.closeObject()
        }
    }
}
