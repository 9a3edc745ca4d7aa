import PaylinksKit

/// Bytes with holes: output written once with a sentinel in place of each value that
/// varies (an order id, a purchase id), cut at the sentinels, and filled in again and
/// again with real values. Bulk runs use it to write many results that differ only in
/// their identifiers, after proving it on real results.
///
/// Holes are numbered by the sentinel's place in the list the template was made with
/// (callers name them with an `Int` enumeration), so that filling one in costs no
/// generic dispatch.
package struct SlotTemplate: Sendable {
    private var pieces: [(literal: [UInt8], slot: Int?)] = []

    /// The template of `rendered`, cut wherever one of `sentinels` stands; nil when a
    /// sentinel is missing. Sentinels must not overlap one another.
    package init?(_ rendered: [UInt8], sentinels: [[UInt8]]) {
        var rest = rendered[...]
        var found = Set<Int>()
        while let (slot, range) = Self.firstSentinel(in: rest, among: sentinels) {
            pieces.append((Array(rest[rest.startIndex..<range.lowerBound]), slot))
            found.insert(slot)
            rest = rest[range.upperBound...]
        }
        pieces.append((Array(rest), nil))
        guard found.count == sentinels.count else { return nil }
    }

    /// The bytes of the literal parts, for reserving space.
    package var literalLength: Int {
        pieces.reduce(0) { $0 + $1.literal.count }
    }

    /// Appends the template to `buffer`, each hole filled by `fill` with the hole's number.
    package func append(to buffer: inout [UInt8], filling fill: (Int, inout [UInt8]) -> Void) {
        for (literal, slot) in pieces {
            buffer.append(contentsOf: literal)
            if let slot { fill(slot, &buffer) }
        }
    }

    /// The template filled with `values`, one for each sentinel, for proving it against a
    /// real rendering.
    package func filled(with values: [[UInt8]]) -> [UInt8] {
        var buffer: [UInt8] = []
        append(to: &buffer) { slot, buffer in buffer += values[slot] }
        return buffer
    }

    /// The earliest of `sentinels` in `bytes`: its number, and where it stands.
    private static func firstSentinel(in bytes: ArraySlice<UInt8>, among sentinels: [[UInt8]]) -> (Int, Range<Int>)? {
        var best: (Int, Range<Int>)?
        for (slot, sentinel) in sentinels.enumerated() {
            guard let range = bytes.firstOccurrence(of: sentinel) else { continue }
            if range.lowerBound < (best?.1.lowerBound ?? Int.max) { best = (slot, range) }
        }
        return best
    }
}
