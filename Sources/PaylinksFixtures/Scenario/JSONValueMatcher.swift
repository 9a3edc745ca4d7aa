public import PaylinksJSON
import PaylinksKit

/// Compares an expected JSON value with an actual one, the way scenario expectations
/// read: an expected object need only name the keys it cares about; everything else
/// must be equal.
public enum JSONValueMatcher {
    /// The differences, one phrase each: `order.price: expected 499, got 800`.
    public static func differences(expected: JSONValue, actual: JSONValue, path: String) -> [String] {
        switch (expected.kind, actual.kind) {
        case (.object(let wanted), .object(let members)):
            return wanted.flatMap { key, value -> [String] in
                guard let other = members.first(where: { $0.key == key })?.value else {
                    return ["\(path).\(key): expected \(text(of: value)), got nothing"]
                }
                return differences(expected: value, actual: other, path: "\(path).\(key)")
            }
        case (.array(let wanted), .array(let elements)) where wanted.count == elements.count:
            return zip(wanted, elements).enumerated().flatMap { index, pair in
                differences(expected: pair.0, actual: pair.1, path: "\(path)[\(index)]")
            }
        case (.number(let wanted), .number(let got)):
            return wanted == got || (Double(wanted) != nil && Double(wanted) == Double(got))
                ? [] : ["\(path): expected \(wanted), got \(got)"]
        default:
            return text(of: expected) == text(of: actual)
                ? [] : ["\(path): expected \(text(of: expected)), got \(text(of: actual))"]
        }
    }

    /// A value as compact JSON, for messages.
    public static func text(of value: JSONValue) -> String {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.output
    }
}
