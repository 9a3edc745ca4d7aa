import Foundation
import Testing

@testable import PaylinksCommandLine

/// The replacing the command line uses in place of the standard library's
/// string-processing module (`Sources/PaylinksCommandLine/Rendering/TextReplacing.swift`).
@Suite("Replacing")
struct ReplacingTests {
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
        // "\r\n" is one Character, replaced whole.
        #expect("a\r\nb".replacingEvery("\r\n", with: "%0D%0A") == "a%0D%0Ab")
        // "é" written as e and a combining accent is one Character, equal to the single scalar.
        #expect("caf\u{65}\u{301}!".replacingEvery("\u{E9}", with: "e") == "cafe!")
    }

    @Test("every text and pattern over two letters agrees with Foundation's replace")
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
                #expect(
                    text.replacingEvery(pattern, with: "<>") == text.replacingOccurrences(of: pattern, with: "<>"),
                    "\(pattern) in \(text)")
                checked += 1
            }
        }
        #expect(checked == 127 * 14)
    }
}
