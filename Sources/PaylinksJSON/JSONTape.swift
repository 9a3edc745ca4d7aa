/// A JSON text read onto a flat list of its values, for a reader that looks at a few
/// members of a request's body and lets it go: reading it makes nothing per member, and a
/// string is made only when its value is asked for.
///
/// It takes the plain texts most bodies are: ASCII strings without escapes, no byte order
/// mark, no duplicate key and nesting at most ``JSONParser/maximumDepth`` deep, in objects
/// of at most ``largestObject`` members. For any other text it is nil, and the reader reads
/// the text with ``JSONParser``, which takes all of JSON and says what is wrong with a text
/// that is not. A text the tape takes, the parser takes too, with the same values.
package final class JSONTape {
    /// The most members an object on a tape has: a key is checked against the object's
    /// earlier keys, one by one. A larger object is read by the parser, which hashes them.
    package static let largestObject = 32

    fileprivate enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    /// A value on the tape: where its text is, and the entry after its last one (its
    /// members' or elements' entries follow it; an object's alternate key and value).
    fileprivate struct Entry {
        var kind: Kind
        /// A string's text inside its quotes, a number's text; a container's brackets.
        var start: Int32
        var end: Int32
        var next: Int32
    }

    fileprivate let bytes: [UInt8]
    fileprivate let entries: [Entry]

    /// The tape of `bytes`, or nil when it is not a plain JSON text (see ``JSONTape``).
    package init?(_ bytes: [UInt8]) {
        guard bytes.count < Int(Int32.max) else { return nil }
        let read: [Entry]? = bytes.withUnsafeBufferPointer { text in
            var scanner = Scanner(text: text)
            // Room for a body's values at once (an entry for about every 4 bytes of it), up to
            // a bound: a large text's entries grow as it is read, not before a byte is seen.
            scanner.entries.reserveCapacity(min(text.count / 4 + 4, 1024))
            scanner.skipSpace()
            guard scanner.value(), scanner.skipSpace() == text.count else { return nil }
            return scanner.entries
        }
        guard let read else { return nil }
        self.bytes = bytes
        self.entries = read
    }

    /// The text's value.
    package var root: JSONTapeValue { JSONTapeValue(tape: self, index: 0) }

    fileprivate func text(_ entry: Entry) -> String {
        bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
    }

    /// Whether the key `entry` is `name`, byte for byte.
    fileprivate func key(_ entry: Entry, is name: StaticString) -> Bool {
        let length = name.utf8CodeUnitCount
        guard length == Int(entry.end - entry.start) else { return false }
        return bytes.withUnsafeBufferPointer { text in
            let start = Int(entry.start)
            for offset in 0..<length where text[start + offset] != name.utf8Start[offset] { return false }
            return true
        }
    }

    /// Reads a text onto entries, or stops at the first byte a plain text would not have.
    private struct Scanner {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0
        var entries: [Entry] = []

        init(text: UnsafeBufferPointer<UInt8>) {
            self.text = text
        }

        /// Skips white space; returns where the next byte is.
        @discardableResult
        mutating func skipSpace() -> Int {
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return index
                }
            }
            return index
        }

        /// Reads the value at `index`; false when there is none, or it is not plain.
        mutating func value() -> Bool {
            guard index < text.count else { return false }
            switch text[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true", .true)
            case UInt8(ascii: "f"): return literal("false", .false)
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        private mutating func leaf(_ kind: Kind, _ start: Int, _ end: Int) {
            entries.append(Entry(kind: kind, start: Int32(start), end: Int32(end), next: Int32(entries.count + 1)))
        }

        private mutating func literal(_ spelling: StaticString, _ kind: Kind) -> Bool {
            let start = index
            let length = spelling.utf8CodeUnitCount
            guard text.count - index >= length else { return false }
            for offset in 0..<length where text[index + offset] != spelling.utf8Start[offset] { return false }
            index += length
            leaf(kind, start, index)
            return true
        }

        /// A string of printable ASCII without an escape.
        private mutating func string() -> Bool {
            let start = index + 1
            var end = start
            while end < text.count, text[end] >= 0x20, text[end] < 0x80, text[end] != UInt8(ascii: "\""),
                text[end] != UInt8(ascii: "\\")
            {
                end += 1
            }
            guard end < text.count, text[end] == UInt8(ascii: "\"") else { return false }
            index = end + 1
            leaf(.string, start, end)
            return true
        }

        private mutating func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }

        /// A number as RFC 8259 spells it: no leading zero, digits after a point and in an
        /// exponent.
        private mutating func number() -> Bool {
            let start = index
            if text[index] == UInt8(ascii: "-") { index += 1 }
            guard index < text.count else { return false }
            if text[index] == UInt8(ascii: "0") {
                index += 1
                if index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                    return false
                }
            } else if digits() == 0 {
                return false
            }
            if index < text.count, text[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
                index += 1
                if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { return false }
            }
            leaf(.number, start, index)
            return true
        }

        /// Opens a container at `index`: its entry, whose end and next are set by `close`.
        private mutating func open(_ kind: Kind) -> Int? {
            depth += 1
            guard depth <= JSONParser.maximumDepth else { return nil }
            entries.append(Entry(kind: kind, start: Int32(index), end: 0, next: 0))
            index += 1
            skipSpace()
            return entries.count - 1
        }

        private mutating func close(_ container: Int) -> Bool {
            index += 1
            depth -= 1
            entries[container].end = Int32(index)
            entries[container].next = Int32(entries.count)
            return true
        }

        /// After a member or an element: true to read another, false at the end (`index`
        /// on `closing`), nil for anything else.
        private mutating func more(_ closing: UInt8) -> Bool? {
            guard skipSpace() < text.count else { return nil }
            if text[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                return true
            }
            return text[index] == closing ? false : nil
        }

        private mutating func array() -> Bool {
            guard let container = open(.array) else { return false }
            if index < text.count, text[index] == UInt8(ascii: "]") { return close(container) }
            while true {
                guard value(), let another = more(UInt8(ascii: "]")) else { return false }
                if !another { return close(container) }
            }
        }

        private mutating func object() -> Bool {
            guard let container = open(.object) else { return false }
            if index < text.count, text[index] == UInt8(ascii: "}") { return close(container) }
            var members = 0
            while true {
                members += 1
                guard members <= JSONTape.largestObject, index < text.count, text[index] == UInt8(ascii: "\""),
                    string(), !repeatsKey(of: container)
                else { return false }
                guard skipSpace() < text.count, text[index] == UInt8(ascii: ":") else { return false }
                index += 1
                skipSpace()
                guard value(), let another = more(UInt8(ascii: "}")) else { return false }
                if !another { return close(container) }
            }
        }

        /// Whether the key just read is one of the earlier keys of `container`.
        private func repeatsKey(of container: Int) -> Bool {
            let key = entries[entries.count - 1]
            let length = key.end - key.start
            var other = container + 1
            while other < entries.count - 1 {
                let earlier = entries[other]
                if earlier.end - earlier.start == length {
                    var offset: Int32 = 0
                    while offset < length, text[Int(earlier.start + offset)] == text[Int(key.start + offset)] {
                        offset += 1
                    }
                    if offset == length { return true }
                }
                other = Int(entries[other + 1].next)
            }
            return false
        }
    }
}

/// A value on a ``JSONTape``.
package struct JSONTapeValue: JSONReadable {
    fileprivate let tape: JSONTape
    fileprivate let index: Int

    fileprivate var entry: JSONTape.Entry { tape.entries[index] }

    package var typeDescription: String {
        switch entry.kind {
        case .null: "null"
        case .false, .true: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    package var stringValue: String? {
        let entry = entry
        return entry.kind == .string ? tape.text(entry) : nil
    }

    package var numberText: String? {
        let entry = entry
        return entry.kind == .number ? tape.text(entry) : nil
    }

    package var isObject: Bool { entry.kind == .object }

    /// Read from the number's bytes when it is spelled as most are (see
    /// ``JSONValue/wholeNumberReading(_:)``), without a string made of them.
    package var wholeNumberReading: WholeNumberReading? {
        let entry = entry
        guard entry.kind == .number else { return nil }
        let plain = tape.bytes.withUnsafeBufferPointer {
            JSONValue.plainInteger(UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.end)]))
        }
        if let plain { return .whole(plain) }
        return JSONValue.wholeNumberReading(tape.text(entry))
    }

    package var elements: Elements? {
        let entry = entry
        guard entry.kind == .array else { return nil }
        return Elements(tape: tape, first: index + 1, end: Int(entry.next))
    }

    package func member(_ name: StaticString) -> JSONTapeValue? {
        let entry = entry
        guard entry.kind == .object else { return nil }
        var key = index + 1
        while key < Int(entry.next) {
            if tape.key(tape.entries[key], is: name) { return JSONTapeValue(tape: tape, index: key + 1) }
            key = Int(tape.entries[key + 1].next)
        }
        return nil
    }

    /// Each key is compared where its bytes are, as ``member(_:)`` compares it.
    package func keys(besides names: [StaticString]) -> [String] {
        let entry = entry
        guard entry.kind == .object else { return [] }
        var others: [String] = []
        var key = index + 1
        while key < Int(entry.next) {
            let named = tape.entries[key]
            if !names.contains(where: { tape.key(named, is: $0) }) {
                others.append(
                    tape.bytes.withUnsafeBufferPointer { text in
                        String(decoding: text[Int(named.start)..<Int(named.end)], as: UTF8.self)
                    })
            }
            key = Int(tape.entries[key + 1].next)
        }
        return others
    }

    package var nesting: Int {
        let entry = entry
        guard entry.kind == .array || entry.kind == .object else { return 0 }
        var deepest = 0
        var child = index + 1
        while child < Int(entry.next) {
            if entry.kind == .object { child += 1 }
            let value = JSONTapeValue(tape: tape, index: child)
            deepest = max(deepest, value.nesting)
            child = Int(value.entry.next)
        }
        return 1 + deepest
    }

    package func write<Sink: JSONSink>(to sink: inout Sink) {
        let entry = entry
        switch entry.kind {
        case .null: sink.null()
        case .false: sink.bool(false)
        case .true: sink.bool(true)
        case .number: sink.rawNumber(tape.text(entry))
        case .string: sink.string(tape.text(entry))
        case .array:
            sink.openArray()
            for element in Elements(tape: tape, first: index + 1, end: Int(entry.next)) { element.write(to: &sink) }
            sink.closeArray()
        case .object:
            sink.openObject()
            var key = index + 1
            while key < Int(entry.next) {
                sink.key(data: tape.text(tape.entries[key]))
                let value = JSONTapeValue(tape: tape, index: key + 1)
                value.write(to: &sink)
                key = Int(value.entry.next)
            }
            sink.closeObject()
        }
    }

    /// An array's elements, in order.
    package struct Elements: Sequence, IteratorProtocol {
        fileprivate let tape: JSONTape
        fileprivate var first: Int
        fileprivate let end: Int

        package mutating func next() -> JSONTapeValue? {
            guard first < end else { return nil }
            let element = JSONTapeValue(tape: tape, index: first)
            first = Int(tape.entries[first].next)
            return element
        }
    }
}
