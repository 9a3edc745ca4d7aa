import PaylinksJSON

extension JSONValue {
    /// Whether two values are equal as JSON Schema's `enum` and `const` compare: numbers by
    /// value, objects by their members whatever their order.
    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left.kind, right.kind) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return ExactNumber(a) == ExactNumber(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in b.contains { $0.key == member.key && same($0.value, member.value) } }
        default: return false
        }
    }
}

extension JSONValue {
    /// The member named `name` of an object; nil for anything else.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == name }?.value
    }

    /// The members of an object; empty for anything else.
    var objectMembers: [(key: String, value: JSONValue)] {
        if case .object(let members) = kind { members } else { [] }
    }

    /// The elements of an array; empty for anything else.
    var arrayElements: [JSONValue] {
        if case .array(let elements) = kind { elements } else { [] }
    }

    /// The text of a string; nil for anything else.
    var string: String? {
        if case .string(let text) = kind { text } else { nil }
    }

    /// The value as JSON text, for a problem to quote (cut short past 80 characters).
    var text: String {
        var writer = JSONWriter()
        write(to: &writer)
        let whole = writer.output
        return whole.count > 80 ? String(whole.prefix(77)) + "..." : whole
    }
}
