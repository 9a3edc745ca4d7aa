import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// One run reports every problem of a file, however many share a step or an offer, in the
/// order they stand; an expectation names only the model's keys.
@Suite("Whole-file errors")
@MainActor
struct WholeFileTests {
    @Test("two mistakes in one step, and one in its expectation's order, are all reported in one run, in file order")
    func oneStep() throws {
        let path = try ScenarioTests.write([
            (
                "step.json",
                """
                {"steps": [
                  {"step": "initialize"},
                  {"step": "purchase", "sku": "nope", "outcome": "bad", "country": "XX",
                   "expect": {"callback": "onPurchaseSucess", "order": {"prise": 499, "items": [{"nam": "Gems"}]}}}
                ]}
                """
            )
        ])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .dataError)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.map { $0.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "" } == [
                "\(path):3:31:", "\(path):3:50:", "\(path):3:68:", "\(path):4:27:", "\(path):4:57:", "\(path):4:82:",
            ], "\(result.stderr)")
        #expect(lines[0].hasSuffix(#"steps[1].sku: unknown SKU "nope""#))
        #expect(lines[1].contains("steps[1].outcome: expected one of succeeded, declined, pending"))
        #expect(lines[2].contains(#"steps[1].country: "XX" is not an ISO 3166-1 alpha-2 country code"#))
        #expect(lines[3].contains(#"did you mean "onPurchaseSuccess"?"#))
        #expect(lines[4].hasSuffix(#"steps[1].expect.order.prise: unknown key "prise"; did you mean "price"?"#))
        #expect(lines[5].hasSuffix(#"steps[1].expect.order.items[0].nam: unknown key "nam"; did you mean "name"?"#))
    }

    @Test(
        "an expectation's error and price points name only the model's keys",
        arguments: [
            (
                #"{"step": "purchase", "sku": "starter_pack_001", "error": 3002, "expect": {"error": {"cod": 3002}}}"#,
                #"steps[1].expect.error.cod: unknown key "cod"; did you mean "code"?"#
            ),
            (
                #"{"step": "price-points", "expect": {"pricePoints": {"pricingPointData": {"currency": "USD"}}}}"#,
                #"steps[1].expect.pricePoints.pricingPointData.currency: unknown key "currency"; did you mean "currencyCode"?"#
            ),
        ])
    func modelKeys(step: String, message: String) throws {
        let path = try ScenarioTests.write([("keys.json", #"{"steps": [{"step": "initialize"}, \#(step)]}"#)])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.hasSuffix(message + "\n"), "\(result.stderr)")
    }

    @Test("an expectation may name every key the JSON output writes, on every platform, and error.data freely")
    func shapeMatchesOutput() throws {
        for platform in ["ios", "unity"] {
            for arguments in [
                ["purchase", "--sku", "starter_pack_001"], ["price-points"],
                ["purchase", "--sku", "starter_pack_001", "--error", "3003"],
            ] {
                let result = runCLI(arguments + ["--json", "--platform", platform, "--seed", "1"])
                #expect(!result.stdout.isEmpty, "\(arguments): \(result.stderr)")
                let line = try #require(result.stdout.split(separator: "\n").last.map(String.init))
                let value = try JSONParser.parse(Array(line.utf8))
                guard case .object(let members) = value.kind else { continue }
                for member in members where member.key != "callback" {
                    let shape: ModelShape =
                        switch member.key {
                        case "order": .order
                        case "error": .error
                        default: .pricePoints
                        }
                    let problems = JSONProblems()
                    try shape.checkKeys(of: JSONReader(root: member.value, problems: problems))
                    #expect(problems.errors.isEmpty, "\(arguments) on \(platform): \(problems.errors)")
                    #expect(Self.paths(member.value).allSatisfy { Self.shapeHolds(shape, $0) })
                }
            }
        }
    }

    /// Every key path of `value`, arrays as `[]`.
    static func paths(_ value: JSONValue, prefix: [String] = []) -> [[String]] {
        switch value.kind {
        case .object(let members): members.flatMap { paths($0.value, prefix: prefix + [$0.key]) } + [prefix]
        case .array(let elements): elements.flatMap { paths($0, prefix: prefix + ["[]"]) }
        default: [prefix]
        }
    }

    static func shapeHolds(_ shape: ModelShape, _ path: [String]) -> Bool {
        guard let first = path.first else { return true }
        switch shape.kind {
        case .any: return true
        case .object:
            return shape.fields.first { $0.key == first }.map { shapeHolds($0.shape, Array(path.dropFirst())) }
                ?? false
        case .array: return first == "[]" && shape.element.map { shapeHolds($0, Array(path.dropFirst())) } == true
        case .value: return false
        }
    }

    @Test("every problem of one offer in a fixture file is reported in one run")
    func oneOffer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(
            """
            {"offers": [{"sku": "a", "name": "", "basePriceInUSD": "4.98",
              "items": [{"name": "Coins", "sku": "", "quantity": "lots"}]}]}
            """.utf8
        ).write(to: directory.appendingPathComponent("offers.json"))
        let result = runCLI("offers", "--fixtures", directory.path)
        #expect(result.exitCode == .dataError)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stderr)")
        #expect(lines.count == 4 && lines[0].hasSuffix("offers[0].name: must not be empty"))
        #expect(lines.count == 4 && lines[1].contains(#"offers[0].basePriceInUSD: "4.98" is not a price tier"#))
        #expect(lines.count == 4 && lines[2].hasSuffix("offers[0].items[0].sku: must not be empty"))
        #expect(
            lines.count == 4
                && lines[3].hasSuffix(
                    #"offers[0].items[0].quantity: expected a positive whole number as a string, such as "100""#)
        )
    }
}
