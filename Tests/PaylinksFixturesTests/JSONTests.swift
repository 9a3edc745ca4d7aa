import Foundation
import Testing

@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

extension JSONValue.Kind {
    var members: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }
    var elements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
    var number: String? {
        if case .number(let text) = self { return text }
        return nil
    }
}

/// The JSON parser fixtures go through, and the writer output goes through.
@Suite("JSON")
struct JSONTests {
    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        syntaxError(Array(text.utf8))
    }

    private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("valid documents parse, keeping member order and number spelling")
    func parses() throws {
        let value = try JSONParser.parse(Array(#"{"b": [1, -2.5e3, true, null], "a": "\u00e9\ud83d\ude00"}"#.utf8))
        let members = try #require(value.kind.members)
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[1].value.kind.string == "é😀")
        let elements = try #require(members[0].value.kind.elements)
        #expect(elements[1].kind.number == "-2.5e3")
    }

    @Test(
        "malformed documents are refused with a line and column",
        arguments: [
            ("{\"a\": 1,}", "1:9"), ("[1, 2", "1:6"), ("{\"a\" 1}", "1:6"), ("01", "1:2"), ("\"abc", "1:5"),
            ("{\"a\": 1}\n{\"b\": 2}", "2:1"), ("// comment", "1:1"), ("[\"\u{01}\"]", "1:3"), ("\n\n  tru", "3:3"),
            ("{\"a\": 1, \"a\": 2}", "1:10"), ("\"\\x\"", "1:3"),
        ])
    func malformed(text: String, position: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.position.description == position, "\(error.reason)")
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() throws {
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xE2, 0x82],
        ] {
            let error = try #require(syntaxError(bytes))
            #expect(error.reason.contains("UTF-8"))
        }
    }

    @Test("nesting deeper than the limit is refused without recursing into it")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 100_000)
        let error = try #require(syntaxError(text))
        #expect(error.reason.contains("nesting deeper than \(JSONParser.maximumDepth)"))
    }

    @Test(
        "strings are escaped so any JSON parser reads them back unchanged",
        arguments: [
            "plain", "quote \" and backslash \\", "line\nfeed\ttab\r", "\u{00}\u{01}\u{1F}\u{7F}", "é ü ¥ ₩ 😀 日本",
            "slash / and \u{2028}",
            // Each class alone, so that no other character in the string makes it escape.
            "\\", "Acme\\Pay", "\"", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", "\u{7F}",
        ])
    func escaping(text: String) throws {
        var output = ""
        JSONWriter.appendQuoted(text, to: &output)
        let decoded = try JSONDecoder().decode(String.self, from: Data(output.utf8))
        #expect(decoded == text)
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("a character escaped, or only like one, is written the same wherever it falls in a long string")
    func escapingAnywhere() {
        // Each escaped class, its neighbours, and non-ASCII that starts as an escaped one does.
        let characters = [
            "\"", "\\", "\n", "\u{00}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "¢", "\u{85}", "\u{9F}",
            "€", "\u{2028}", "\u{202E}", "\u{2066}", "\u{200F}", "😀",
        ]
        func inner(_ text: String) -> String {
            var output = ""
            JSONWriter.appendQuoted(text, to: &output)
            return String(output.dropFirst().dropLast())
        }
        for character in characters {
            // Alone, shorter than eight bytes: the written form to find again.
            let alone = inner(character)
            for before in 0...17 {
                let text = String(repeating: "a", count: before) + character + String(repeating: "b", count: 20)
                let expected = String(repeating: "a", count: before) + alone + String(repeating: "b", count: 20)
                #expect(inner(text) == expected, "\(character.unicodeScalars.map(\.value)) after \(before) bytes")
                let twice = String(repeating: "a", count: before) + character + "cd" + character
                #expect(inner(twice) == String(repeating: "a", count: before) + alone + "cd" + alone)
            }
        }
    }

    @Test("a byte of a search's set is found at every place, eight at a time or one, and no other byte is")
    func byteSearch() {
        let search = ByteSearch(below: 0x20, 0x22, 0x5C, 0xC2, 0xE2)
        let inSet: (UInt8) -> Bool = { $0 < 0x20 || [0x22, 0x5C, 0xC2, 0xE2].contains($0) }
        // Fillers beside the bound and beside each value, and bytes with the high bit set.
        let fillers: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x61, 0x7F, 0x80, 0xC1, 0xC3, 0xE1, 0xE3, 0xFF]
        for filler in fillers {
            for byte in UInt8.min...UInt8.max {
                for place in 0..<20 {
                    var bytes = [UInt8](repeating: filler, count: 24)
                    bytes[place] = byte
                    let found = bytes.withUnsafeBufferPointer { search.firstIndex(in: $0) }
                    #expect(found == (inSet(byte) ? place : 24), "byte \(byte) at \(place) among \(filler)")
                    // From past it, the byte is not seen.
                    let after = bytes.withUnsafeBufferPointer { search.firstIndex(in: $0, from: place + 1) }
                    #expect(after == 24)
                }
            }
        }
        #expect([UInt8]().withUnsafeBufferPointer { search.firstIndex(in: $0) } == 0)
    }

    @Test("whole numbers and number keys are written in their digits, signed, compact and indented")
    func numbers() throws {
        for indent in [0, 2] {
            var writer = JSONWriter(indent: indent)
            writer.openObject()
            for value in [0, 7, 699, -42, Int.max, Int.min] {
                writer.key(number: value)
                writer.int(value)
            }
            writer.closeObject()
            let members = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Int])
            #expect(members == ["0": 0, "7": 7, "699": 699, "-42": -42, "\(Int.max)": .max, "\(Int.min)": .min])
            #expect(writer.output.contains(indent == 0 ? #"{"0":0,"7":7,"699":699,"-42":-42"# : #"  "699": 699,"#))
        }
    }

    @Test(
        "a number appended as decimal bytes reads as its String, sign and all, to the ends of its type",
        arguments: [0, 9, 10, -1, 699, -42, 1_717_171_717_171, Int.max, Int.min])
    func decimalBytes(value: Int) {
        var bytes = Array("t=".utf8)
        bytes.appendDecimal(value)
        #expect(bytes == Array("t=\(value)".utf8))
    }

    @Test(
        "an unsigned number appended as decimal bytes reads as its String",
        arguments: [0, 1, 4_242_424_242, UInt64.max])
    func unsignedDecimalBytes(value: UInt64) {
        var bytes: [UInt8] = []
        bytes.appendDecimal(value)
        #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }

    @Test("a line is the JSON and one line feed, whatever it holds, from nothing to past its reserved room")
    func line() {
        for text in ["", "é ✓ \u{1F600}", String(repeating: "x", count: 300)] {
            var writer = JSONWriter(capacity: 16)
            writer.openObject()
            writer.field("text", text)
            writer.closeObject()
            #expect(writer.line == writer.output + "\n")
            #expect(Array(writer.line.utf8) == writer.bytes + [10])
        }
        #expect(JSONWriter().line == "\n")
    }

    @Test("keys are compared scalar by scalar: a precomposed and a decomposed é are two keys")
    func keysByScalars() throws {
        let value = try JSONParser.parse(Array(#"{"\u00e9": 1, "e\u0301": 2}"#.utf8))
        #expect(value.kind.members?.map(\.key.unicodeScalars.count) == [1, 2])
        #expect(syntaxError(#"{"\u00e9": 1, "\u00e9": 2}"#)?.reason.contains("duplicate key") == true)
        // Past the scan, the set of large objects compares the same way.
        let many = (0..<20).map { "\"k\($0)\": 0" }.joined(separator: ", ")
        #expect(throws: Never.self) { try JSONParser.parse(Array(#"{\#(many), "\u00e9": 1, "e\u0301": 2}"#.utf8)) }
    }

    @Test("a duplicate key is refused wherever it falls, before, at and past the object size where the check changes")
    func duplicatesAtEverySize() throws {
        for count in 1...20 {
            let keys = (0..<count).map { "\"k\($0)\": \($0)" }
            #expect(throws: Never.self) { try JSONParser.parse(Array("{\(keys.joined(separator: ","))}".utf8)) }
            for repeated in 0..<count {
                let text = "{\(keys.joined(separator: ",")), \"k\(repeated)\": 0}"
                #expect(
                    syntaxError(text)?.reason == "duplicate key \"k\(repeated)\"", "\(count) keys, k\(repeated) again")
            }
        }
    }

    @Test("a key a reason quotes is cut after 80 characters, however long the key sent")
    func longKeyInReason() {
        let long = String(repeating: "\u{2028}", count: 100_000)
        let cut = "\"" + String(repeating: "\u{2028}", count: 80) + "...\""
        #expect(syntaxError("{\"\(long)\": 1, \"\(long)\": 2}")?.reason == "duplicate key \(cut)")
        #expect(syntaxError("{\"\(long)\" 1}")?.reason == "unexpected '1'; expected ':' after the key \(cut)")
        let eighty = String(repeating: "k", count: 80)
        #expect(syntaxError("{\"\(eighty)\": 1, \"\(eighty)\": 2}")?.reason == "duplicate key \"\(eighty)\"")
    }

    @Test("nesting exactly at the limit is read; one level more is refused")
    func nestingAtTheLimit() throws {
        let depth = JSONParser.maximumDepth
        let array = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(array.utf8)) }
        #expect(syntaxError("[" + array + "]")?.reason.contains("nesting deeper") == true)
        let object = String(repeating: #"{"a":"#, count: depth) + "0" + String(repeating: "}", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(object.utf8)) }
        #expect(syntaxError(#"{"a":"# + object + "}")?.reason.contains("nesting deeper") == true)
    }

    @Test("a container of one value keeps no spare room, so that many small ones cost no more than their values")
    func singleValuesKeepNoRoom() throws {
        let value = try JSONParser.parse(Array(#"[{"a":[{"b":0}]}]"#.utf8))
        let outer = try #require(value.kind.elements)
        let object = try #require(outer.first)
        let members = try #require(object.kind.members)
        let inner = try #require(members.first?.value.kind.elements)
        let innermost = try #require(inner.first)
        #expect(outer.capacity < 4 && members.capacity < 4 && object.keyOffsets.capacity < 4)
        #expect(inner.capacity < 4 && (innermost.kind.members?.capacity ?? 4) < 4 && innermost.keyOffsets.capacity < 4)
    }
}
