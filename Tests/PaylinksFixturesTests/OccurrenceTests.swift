import Foundation
import Testing

@testable import PaylinksKit

/// The search and replace every layer uses in place of the standard library's
/// string-processing module (`Sources/PaylinksKit/Formatting/Occurrences.swift`). They are
/// package API, so they are tested here rather than with the core's public API.
@Suite("Finding and replacing")
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

    @Test("every occurrence replaced, left to right, without overlap")
    func replacingEvery() {
        #expect("a:b,c:".replacingEvery(":", with: "%3A") == "a%3Ab,c%3A")
        #expect("aaa".replacingEvery("aa", with: "b") == "ba")
        #expect("it's".replacingEvery("'", with: "\\'") == "it\\'s")
        #expect("100%".replacingEvery("%", with: "%25") == "100%25")
        #expect("abc".replacingEvery("", with: "x") == "abc")
        #expect("abc".replacingEvery("d", with: "x") == "abc")
        #expect("abc".replacingEvery("abc", with: "") == "")
        #expect("Season Pass — Season 12 ✨".replacingEvery("Season", with: "S") == "S Pass — S 12 ✨")
    }

    @Test("strings are compared by Character, as the standard library compares them")
    func characters() {
        // "\r\n" is one Character: its "\r" is not a Character of its own to find.
        #expect("a\r\nb".firstOccurrence(of: "\r") == nil)
        #expect("a\r\nb".replacingEvery("\r\n", with: "%0D%0A") == "a%0D%0Ab")
        // "é" written as e and a combining accent is one Character, equal to the single scalar.
        #expect("caf\u{65}\u{301}!".replacingEvery("\u{E9}", with: "e") == "cafe!")
    }

    @Test("every text and pattern over two letters agrees with Foundation's search and replace")
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
                #expect(
                    text.replacingEvery(pattern, with: "<>") == text.replacingOccurrences(of: pattern, with: "<>"),
                    "\(pattern) in \(text)")
                checked += 1
            }
        }
        #expect(checked == 127 * 14)
    }
}
