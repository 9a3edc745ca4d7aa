import Testing

@testable import PaylinksJSON

/// `JSONTape`: plain texts read onto a flat list, with the values the parser gives them;
/// every other text left to the parser.
@Suite("JSON tape")
struct JSONTapeTests {
    /// The value written compactly: what a reader of either sees, byte for byte.
    private func written(_ value: some JSONReadable) -> String {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.output
    }

    /// Whether the tape of `text` reads as the parser's tree of it: the same values in the
    /// same order, nested as deeply. A text the tape takes that the parser refuses fails.
    private func agrees(_ text: [UInt8]) -> Bool? {
        guard let tape = JSONTape(text) else { return nil }
        guard let tree = try? JSONParser.parse(text) else { return false }
        return written(tape.root) == written(tree) && tape.root.nesting == tree.nesting
    }

    static let plain = [
        #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Starter Pack","sku":"starter_pack_001"}}"#,
        " { \"a\" : [ 1 , -0 , 2.50 , -3e+7 , 4E-2 , 0.0e0 ] ,\r\n\t\"b\" : { } , \"c\" : [ ] } ",
        #"[true,false,null,"",{"":0},[[[]]]]"#, "0", "-12.5e3", "\"a slash /, a tilde ~ and a delete \u{7F}\"",
        "null", #"{"a":{"b":{"c":{"d":"deep"}}},"ab":1,"A":2}"#,
        String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth),
        "{" + (0..<JSONTape.largestObject).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
    ]

    @Test("a plain text is read with the values the parser gives it", arguments: plain)
    func plainText(text: String) {
        #expect(agrees(Array(text.utf8)) == true, "\(text)")
    }

    @Test(
        "a text with an escape, a byte beyond ASCII, a repeated key or too many levels or members is the parser's",
        arguments: [
            #"{"a":"line\nbreak"}"#, #"{"a\"b":1}"#, #""\u0041""#, #"{"name":"Café"}"#, "\u{FEFF}{}",
            #"{"a":1,"a":2}"#, #"{"a":{"b":1,"c":2,"b":3}}"#,
            String(repeating: "[", count: JSONParser.maximumDepth + 1)
                + String(repeating: "]", count: JSONParser.maximumDepth + 1),
            "{" + (0...JSONTape.largestObject).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
            "\"tab\there\"",
        ])
    func leftToTheParser(text: String) {
        #expect(JSONTape(Array(text.utf8)) == nil, "\(text)")
    }

    @Test(
        "a text that is not JSON is not read",
        arguments: [
            "", " ", "{", "}", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, "01", "-", "1.", ".5", "1e", "1e+",
            "tru", "nul", "falsey", "[1 2]", "{} x", "[] []", #""open"#, #"{"a":1]"#, "[1}", "+1", "--1", "/* */ 1",
        ])
    func notJSON(text: String) {
        #expect(JSONTape(Array(text.utf8)) == nil, "\(text)")
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test(
        "a number is the same whole number off the tape as parsed, read from its bytes or its text",
        arguments: [
            "499", "-12", "0", "-0", "4.99e2", "499.0", "-0.0", "1e18", "999999999999999999", "1000000000000000000",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
            "1e999999999", "499.5", "1e-999999",
        ])
    func wholeNumbers(text: String) throws {
        let tape = try #require(JSONTape(Array(text.utf8)))
        let tree = try JSONParser.parse(Array(text.utf8))
        #expect(tape.root.wholeNumberReading == tree.wholeNumberReading, "\(text)")
        #expect(tape.root.wholeNumber == tree.wholeNumber, "\(text)")
        #expect(tree.wholeNumberReading != nil)
    }

    @Test("members are found by their key's exact bytes, elements in their order")
    func members() throws {
        let tape = try #require(JSONTape(Array(#"{"ab":1,"a":[true,"x",{"c":null}],"A":"upper","":""}"#.utf8)))
        let root = tape.root
        #expect(root.isObject)
        #expect(root.member("a")?.elements.map { $0.map(\.typeDescription) } == ["a boolean", "a string", "an object"])
        #expect(root.member("ab")?.numberText == "1")
        #expect(root.member("A")?.stringValue == "upper")
        #expect(root.member("")?.stringValue == "")
        #expect(root.member("b") == nil)
        #expect(root.member("abc") == nil)
        #expect(root.member("ab")?.member("ab") == nil)
        #expect(root.member("a")?.elements.map(Array.init)?.last?.member("c")?.typeDescription == "null")
        #expect(root.elements == nil)
        #expect(root.stringValue == nil && root.numberText == nil)
        #expect(root.member("ab")?.wholeNumber == 1)
    }

    /// Every text one edit away from a few bodies: a byte deleted, or replaced by one that
    /// matters to JSON. Where the tape takes one, it agrees with the parser.
    @Test("texts an edit away from a body are read as the parser reads them, or left to it")
    func edits() {
        let seeds = [
            #"{"priceDetails":{"price":499,"currency":"USD"},"items":[{"sku":"gem_01","quantity":100}],"n":-1.5e2}"#,
            #"[{"a":[]},{"b":{}},true,false,null,"s",0]"#,
        ]
        let replacements = Array(#"{}[],:"\ 0123-+.eEtfnulr/aé"#.utf8) + [0x09, 0x7F, 0x00, 0xEF]
        var taken = 0
        var left = 0
        for seed in seeds.map({ Array($0.utf8) }) {
            for index in seed.indices {
                var deleted = seed
                deleted.remove(at: index)
                var texts = [deleted]
                for byte in replacements where byte != seed[index] {
                    var replaced = seed
                    replaced[index] = byte
                    texts.append(replaced)
                }
                for text in texts {
                    switch agrees(text) {
                    case nil: left += 1
                    case let same?:
                        taken += 1
                        #expect(same, "\(String(decoding: text, as: UTF8.self))")
                    }
                }
            }
        }
        // Both kinds were met, so both were checked.
        #expect(taken > 100 && left > 1000, "\(taken) taken, \(left) left")
    }
}
