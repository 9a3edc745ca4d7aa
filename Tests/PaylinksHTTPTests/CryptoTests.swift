import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksAppcharge

/// SHA-256 and HMAC-SHA256, proven by the standards' own examples and against Python's.
@Suite("SHA-256 and HMAC")
struct CryptoTests {
    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    @Test(
        "FIPS 180-4 examples",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func sha256(message: String, digest: String) {
        #expect(HMACSHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
        for engine in SHA256.Engine.available {
            var hasher = SHA256(engine: engine)
            hasher.update(Array(message.utf8))
            #expect(HMACSHA256.hex(hasher.finalize()) == digest, "\(engine)")
        }
    }

    @Test("a million a's, fed in pieces that straddle blocks")
    func millionAs() {
        for engine in SHA256.Engine.available {
            var hasher = SHA256(engine: engine)
            for _ in 0..<1000 { hasher.update([UInt8](repeating: 0x61, count: 1000)) }
            #expect(
                HMACSHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                "\(engine)")
        }
    }

    @Test("every engine this processor runs gives the portable one's digest, for every length to five blocks")
    func enginesAgree() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...320 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var portable = SHA256(engine: .portable)
            portable.update(message)
            let expected = portable.finalize()
            for engine in SHA256.Engine.available {
                // Whole, and in two parts split anywhere.
                var whole = SHA256(engine: engine)
                whole.update(message)
                #expect(whole.finalize() == expected, "\(engine), \(length) bytes")
                let split = Int.random(in: 0...length, using: &generator)
                var parts = SHA256(engine: engine)
                parts.update(message[..<split])
                parts.update(message[split...])
                #expect(parts.finalize() == expected, "\(engine), \(length) bytes split at \(split)")
            }
        }
    }

    #if os(Linux) && arch(x86_64)
        @Test("the SHA instructions are used exactly where the processor has them, as /proc/cpuinfo says")
        func instructionsWhereAvailable() throws {
            let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
                .split(separator: "\n").first { $0.hasPrefix("flags") }
            let listed = try #require(flags).split(separator: " ").contains("sha_ni")
            #expect(SHA256.Engine.available.contains(.instructions) == listed)
            #expect(SHA256.Engine.fastest == (listed ? .instructions : .portable))
        }
    #endif

    @Test(
        "RFC 4231 test cases",
        arguments: [
            (
                "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", String(repeating: "dd", count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                String(repeating: "aa", count: 131),
                "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                String(repeating: "aa", count: 131),
                "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ])
    func hmac(key: String, message: String, mac: String) {
        #expect(HMACSHA256.hex(HMACSHA256.authenticate(Self.bytes(hex: message), key: Self.bytes(hex: key))) == mac)
    }

    @Test("RFC 4231 case 5: the first 128 bits")
    func truncated() {
        let mac = HMACSHA256.authenticate(
            Self.bytes(hex: "546573742057697468205472756e636174696f6e"),
            key: [UInt8](repeating: 0x0c, count: 20))
        #expect(HMACSHA256.hex(Array(mac.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test(
        "a signature header written after other bytes signs the time, a dot and the body, and leaves those bytes be",
        arguments: [0, 7, 1_718_182_400_000, Int.max])
    func signatureAfterBytes(milliseconds: Int) {
        let body = Array(#"{"purchaseId":"pur_é"}"#.utf8)
        let key = HMACSHA256.Key(Array("key".utf8))
        var bytes = Array("signature: ".utf8)
        GrantAward.appendSignature(body: body, milliseconds: milliseconds, key: key, to: &bytes)
        let mac = HMACSHA256.authenticate(Array("\(milliseconds).".utf8) + body, key: Array("key".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == "signature: t=\(milliseconds),v1=\(HMACSHA256.hex(mac))")
    }

    @Test(
        "an event's id is a version 4 UUID of the SHA-256 of event:SEED:PURCHASE:SEQUENCE, as Python's hashlib makes it",
        arguments: [
            (UInt64(7), "pur_1", 0, "8aa31758-63fe-4d5b-943c-b36d74b77976"),
            (UInt64.max, "pur_é", -3, "b6e97f29-7b14-46fc-8163-66067fae8788"),
            (UInt64(0), "", 63, "39aa9e2f-94e8-49f9-b42a-361cb4f10c96"),
        ])
    func eventId(seed: UInt64, purchaseId: String, sequence: Int, expected: String) {
        #expect(OrderEvent.uuid(seed: seed, purchaseId: purchaseId, sequence: sequence) == expected)
    }

    static let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "agrees with Python's hmac on random keys and messages of every length around the block size",
        .enabled(if: python != nil || runningInCI, "python3 is not installed"))
    func againstPython() throws {
        var generator = SystemRandomNumberGenerator()
        var cases: [(key: [UInt8], message: [UInt8])] = []
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000] {
            let key = (0..<Int.random(in: 0...100, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            cases.append((key, message))
        }
        let input = cases.map { HMACSHA256.hex($0.key) + " " + HMACSHA256.hex($0.message) }.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = [
            "-c",
            "import sys,hmac,hashlib\nfor line in sys.stdin.read().split('\\n'):\n k,m=line.split(' ')\n"
                + " print(hmac.new(bytes.fromhex(k),bytes.fromhex(m),hashlib.sha256).hexdigest())",
        ]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = output.split(separator: "\n").map(String.init)
        #expect(expected.count == cases.count)
        for (index, item) in cases.enumerated() where index < expected.count {
            #expect(HMACSHA256.hex(HMACSHA256.authenticate(item.message, key: item.key)) == expected[index])
            // A key prepared once, the message given in two parts split anywhere.
            let split = Int.random(in: 0...item.message.count, using: &generator)
            var parts = HMACSHA256.Key(item.key).authenticator()
            parts.update(item.message[..<split])
            parts.update(item.message[split...])
            #expect(HMACSHA256.hex(parts.finalize()) == expected[index])
        }
    }
}
