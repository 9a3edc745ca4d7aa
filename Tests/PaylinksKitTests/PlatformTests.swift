import PaylinksKit
import Testing

/// Platforms and SDK versions: which generation each version belongs to.
@Suite("Platforms and SDK versions")
struct PlatformTests {
    @Test(
        "each documented version maps to its generation",
        arguments: [
            (Platform.ios, "1.5.1", Generation.g1), (.ios, "1.7", .g1), (.ios, "1.8.0", .g2), (.ios, "1.9", .g2),
            (.ios, "2.0.0", .g3), (.android, "1.4", .g1), (.android, "1.5.9", .g1), (.android, "1.6", .g2),
            (.android, "1.7", .g2), (.android, "1.12", .g2), (.android, "2.0", .g3), (.unity, "2.3", .g1),
            (.unity, "2.4.9", .g1), (.unity, "2.5", .g2), (.unity, "2.6", .g2), (.unity, "3.0", .g3),
        ])
    func generations(platform: Platform, version: String, generation: Generation) throws {
        let target = try SDKTarget(platform: platform, version: version)
        #expect(target.generation == generation)
        #expect(target.version.description == version)
    }

    @Test(
        "versions outside every range, and text that is no version, are refused",
        arguments: [
            (Platform.ios, "1.4"), (.ios, "1.10"), (.ios, "2.1"), (.ios, "3"), (.android, "0.9"), (.android, "2.1"),
            (.unity, "2.7"), (.unity, "2.9.9"), (.unity, "3.1"), (.unity, "4.0"),
        ])
    func unknownVersions(platform: Platform, version: String) throws {
        #expect(throws: SDKTarget.Problem.self) { try SDKTarget(platform: platform, version: version) }
    }

    @Test(
        "a version number has one to three numbers of up to four digits",
        arguments: ["", "1.", ".9", "1.9.0.1", "v2", "1.x", "1,9", "12345", " 1.9", "١.٩"])
    func malformed(text: String) {
        #expect(SDKVersion(text) == nil)
        #expect(throws: SDKTarget.Problem.malformed(text)) { try SDKTarget(platform: .ios, version: text) }
    }

    @Test("without a version, each platform gets its newest G2 version")
    func defaults() throws {
        #expect(try SDKTarget(platform: .ios).description == "iOS SDK 1.9 (G2)")
        #expect(try SDKTarget(platform: .android).description == "Android SDK 1.7 (G2)")
        #expect(try SDKTarget(platform: .unity).description == "Unity SDK 2.6 (G2)")
        #expect(SDKTarget.standard == (try SDKTarget(platform: .ios, version: "1.9.0")))
    }

    @Test(
        "the refusal lists the platform's known ranges",
        arguments: [
            (Platform.ios, "1.5-1.7 (G1), 1.8-1.9 (G2), 2.0 (G3)"),
            (.android, "1.0-1.5 (G1), 1.6-1.x (G2), 2.0 (G3)"),
            (.unity, "1.0-2.4 (G1), 2.5-2.6 (G2), 3.0 (G3)"),
        ])
    func knownRanges(platform: Platform, ranges: String) throws {
        let refusal = try #require(throws: SDKTarget.Problem.self) { try SDKTarget(platform: platform, version: "9.9") }
        #expect(refusal.description.hasSuffix("; known: \(ranges)"), "\(refusal)")
    }
}
