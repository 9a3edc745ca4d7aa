import Foundation
import Testing

@testable import PaylinksKit

/// The search every layer uses in place of the standard library's string-processing
/// module (`Sources/PaylinksKit/Formatting/Occurrences.swift`). It is package API, so it is
/// tested here rather than with the core's public API; the command line's replacing, built
/// on it, is tested with the command line (ReplacingTests).
@Suite("Finding")
struct OccurrenceTests {
    /// Where `pattern` first occurs in `text`, as character offsets.
    private func offsets(of pattern: String, in text: String) -> Range<Int>? {
        text.firstOccurrence(of: pattern).map { range in
            let start = text.distance(from: text.startIndex, to: range.lowerBound)
            return start..<start + text[range].count
        }
    }

    @Test("the first occurrence: at the start, in the middle, at the end, absent, cut off")
    func firstOccurrence() {
        #expect(offsets(of: "${", in: "abc${name}d${x}") == 3..<5)
        #expect(offsets(of: "ab", in: "abab") == 0..<2)
        #expect(offsets(of: "ab", in: "xxab") == 2..<4)
        #expect(offsets(of: "ab", in: "aab") == 1..<3)
        #expect(offsets(of: "aab", in: "aaab") == 1..<4)
        #expect("abc".firstOccurrence(of: "abcd") == nil)
        #expect("xab".firstOccurrence(of: "abc") == nil)
        #expect("".firstOccurrence(of: "a") == nil)
        #expect("abc".firstOccurrence(of: "") == "abc".startIndex..<"abc".startIndex)
        #expect([UInt8]([1, 2, 1, 2, 3]).firstOccurrence(of: [1, 2, 3]) == 2..<5)
        #expect(ArraySlice<UInt8>([9, 1, 2])[1...].firstOccurrence(of: [2]) == 2..<3)
    }

    @Test("strings are compared by Character, as the standard library compares them")
    func characters() {
        // "\r\n" is one Character: its "\r" is not a Character of its own to find.
        #expect("a\r\nb".firstOccurrence(of: "\r") == nil)
    }

    @Test("every text and pattern over two letters agrees with Foundation's search")
    func agreesWithFoundation() {
        func words(upTo length: Int) -> [String] {
            var all = [""]
            var last = [""]
            for _ in 0..<length {
                last = last.flatMap { [$0 + "a", $0 + "b"] }
                all += last
            }
            return all
        }
        let texts = words(upTo: 6)
        let patterns = words(upTo: 3).dropFirst()
        var checked = 0
        for text in texts {
            for pattern in patterns {
                let found = text.firstOccurrence(of: pattern).map {
                    NSRange(location: text.distance(from: text.startIndex, to: $0.lowerBound), length: pattern.count)
                }
                let expected = (text as NSString).range(of: pattern)
                #expect(found ?? NSRange(location: NSNotFound, length: 0) == expected, "\(pattern) in \(text)")
                checked += 1
            }
        }
        #expect(checked == 127 * 14)
    }
}
