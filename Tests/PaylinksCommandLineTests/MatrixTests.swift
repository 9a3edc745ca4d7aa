import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// What `run --matrix`, `--platform` and `--sdk-version` do to a scenario that names its
/// own platform or version, and the generation axis.
@Suite("Matrix and targets")
@MainActor
struct MatrixTests {
    static let g3Checkout = ScenarioTests.examples.appendingPathComponent("g3-checkout.json").path

    @Test(
        "--matrix platform keeps the file's SDK generation: a G3 scenario stays G3 on every platform",
        arguments: ["ios", "android", "unity"])
    func platformKeepsGeneration(platform: String) {
        let result = runCLI("run", Self.g3Checkout, "--matrix", "platform=\(platform)", "--json")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("ok    g3-checkout[platform=\(platform)]  8 steps"), "\(result.stderr)")
        // 2005 and 8000 are G3's codes: the file's version was not dropped.
        #expect(result.stdout.contains(#""code":2005"#))
        #expect(result.stdout.contains(#""code":8000"#))
    }

    @Test("--platform applies to a file that sets sdkVersion but no platform, in the platform's names")
    func platformOptionApplies() {
        let result = runCLI("run", Self.g3Checkout, "--platform", "unity", "--json")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stdout.contains(#""callback":"OnInitializeFailed""#), "Unity names, not iOS ones")
        #expect(!result.stdout.contains(#""callback":"onInitialized""#))
        #expect(result.stdout.contains(#""code":2005"#), "still G3: Unity 3.0, not Unity 2.0 (G1)")
        #expect(
            result.stderr.hasPrefix(
                "note: \(Self.g3Checkout): sdkVersion 2.0 is iOS SDK 2.0 (G3); on Unity it runs as Unity SDK 3.0 (G3), "
                    + "the newest G3 version there\n"), "\(result.stderr)")
        let android = runCLI("run", Self.g3Checkout, "--platform", "android")
        #expect(!android.stderr.contains("note:"), "Android 2.0 is the same version: nothing to say")
    }

    @Test("the version a file gives moves to another platform as the same version where it is the same generation")
    func carriedVersions() throws {
        let ios20 = try SDKTarget(platform: .ios, version: "2.0")
        #expect(ios20.carried(to: .android).description == "Android SDK 2.0 (G3)")
        #expect(ios20.carried(to: .unity).description == "Unity SDK 3.0 (G3)")
        let ios17 = try SDKTarget(platform: .ios, version: "1.7")
        #expect(ios17.carried(to: .unity).description == "Unity SDK 1.7 (G1)")
        let ios19 = try SDKTarget(platform: .ios, version: "1.9")
        #expect(ios19.carried(to: .unity).description == "Unity SDK 2.6 (G2)")
        let unity25 = try SDKTarget(platform: .unity, version: "2.5")
        #expect(unity25.carried(to: .ios).description == "iOS SDK 1.9 (G2)")
        #expect(unity25.carried(to: .unity) == unity25)
    }

    @Test("--matrix generation runs the newest version of each generation, named by it, and skips what does not apply")
    func generationAxis() throws {
        let directory = try ScenarioTests.write([("unused.json", "{}")])[0]
        let report = URL(fileURLWithPath: directory).deletingLastPathComponent().appendingPathComponent("r.json").path
        let result = runCLI(
            "run", ScenarioTests.examples.appendingPathComponent("happy-path.json").path, Self.g3Checkout,
            "--matrix", "generation=g1,G2,G3", "--json", "--report", "json=\(report)")
        #expect(result.exitCode == .success, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok    happy path[generation=G1]  3 steps"))
        #expect(lines.contains("ok    happy path[generation=G2]  3 steps"))
        #expect(
            lines.contains {
                $0.hasPrefix("skip  happy path[generation=G3]  does not apply to iOS SDK 2.0 (G3): steps[1]: ")
                    && $0.contains("has no price points")
            }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("skip  g3-checkout[generation=G1]  does not apply to iOS SDK 1.7 (G1)") })
        #expect(lines.contains("ok    g3-checkout[generation=G3]  8 steps"))
        #expect(lines.last == "3 passed, 0 failed, 3 skipped; 14 steps, 14 attempts; expectations: 21 met, 0 failed")
        // Every callback line names its combination.
        #expect(result.stdout.contains(#"{"scenario":"happy path[generation=G1]","step":1"#))
        let json = try String(contentsOfFile: report, encoding: .utf8)
        #expect(json.contains(#""name":"happy path[generation=G3]","file":"#))
        #expect(json.contains(#""status":"skipped","reason":"does not apply to iOS SDK 2.0 (G3): "#))
        try Self.expectValidReport(json)
    }

    @Test("a generation on another platform is that platform's newest version of it")
    func generationOnPlatform() {
        let result = runCLI(
            "run", ScenarioTests.examples.appendingPathComponent("happy-path.json").path, "--matrix",
            "platform=unity", "--matrix", "generation=G1", "--format", "wire")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("ok    happy path[platform=unity,generation=G1]"))
        #expect(result.stdout.contains("OnInitialized"))
    }

    @Test(
        "--matrix refuses a generation it does not know and a version and generation together",
        arguments: [
            (["--matrix", "generation=G4"], "--matrix generation takes G1, G2, G3, not 'G4'"),
            (["--matrix", "sdkVersion=1.9", "--matrix", "generation=G1"], "both sdkVersion and generation"),
        ])
    func badGeneration(arguments: [String], message: String) {
        let result = runCLI(["run", Self.g3Checkout] + arguments)
        #expect(result.exitCode == .usage)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a file broken on its own is an error under a matrix too, every problem said once, with no combination")
    func brokenUnderMatrix() throws {
        let path = try ScenarioTests.write([
            (
                "two.json",
                #"{"steps": [{"step": "purchase", "sku": "nope"}, {"step": "purchase", "sku": "nada"}]}"#
            )
        ])[0]
        let result = runCLI("run", path, "--matrix", "generation=G1,G2")
        #expect(result.exitCode == .dataError)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 2, "\(result.stderr)")
        #expect(errors.allSatisfy { !$0.contains("--matrix") && !$0.contains("generation=") }, "\(result.stderr)")
    }

    @Test("without expectations, the exit code does not depend on the order of the files")
    func orderFree() throws {
        let paths = try ScenarioTests.write([
            ("a.json", #"{"steps": [{"step": "initialize"}, {"step": "cancel", "sku": "starter_pack_001"}]}"#),
            ("b.json", #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#),
        ])
        let forward = runCLI(["run"] + paths)
        let backward = runCLI(["run"] + paths.reversed())
        #expect(forward.exitCode == backward.exitCode)
        #expect(forward.exitCode == .purchaseCanceled, "the highest final code of the two")
        let jobs = runCLI(["run", "--jobs", "2"] + paths.reversed())
        #expect(jobs.exitCode == .purchaseCanceled)
    }

    @Test("a file that does not load still writes both reports, and is annotated at its place under GitHub Actions")
    func brokenReports() throws {
        let paths = try ScenarioTests.write([
            ("good.json", #"{"steps": [{"step": "initialize"}]}"#),
            ("bad.json", "{\"steps\": [\n  {\"step\": \"purchase\", \"sku\": \"nope\"}]}"),
        ])
        let directory = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        let result = runCLI(
            ["run"] + paths + ["--report", "junit=\(directory)/r.xml", "--report", "json=\(directory)/r.json"],
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.exitCode == .dataError)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("::error file=\(paths[1]),line=2,col=31::steps[0].sku: unknown SKU \"nope\""))
        let junit = try String(contentsOfFile: "\(directory)/r.xml", encoding: .utf8)
        #expect(junit.contains(#"tests="1" failures="0" errors="1" skipped="0""#), "\(junit)")
        #expect(junit.contains(#"<error message="steps[0].sku: unknown SKU &quot;nope&quot;"#), "\(junit)")
        #expect(junit.contains("\(paths[1]):2:31: steps[0].sku"))
        let json = try String(contentsOfFile: "\(directory)/r.json", encoding: .utf8)
        #expect(json.hasPrefix(#"{"passed":0,"failed":0,"skipped":0,"errors":1,"scenarios":[{"name":"bad","#))
        #expect(json.contains(#""status":"error","failures":[{"kind":"load","message":"steps[0].sku: unknown SKU"#))
        try Self.expectValidReport(json)
    }

    static func expectValidReport(_ text: String) throws {
        let validator = try SchemaValidator(
            file: DocumentedCommands.root.appendingPathComponent("Schemas/run-report.schema.json"))
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(validator.errors(in: value).isEmpty, "\(validator.errors(in: value))")
    }

    @Test("the JUnit report's times are the wall clock's, not the simulated clock's")
    func wallTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let report = directory.appendingPathComponent("r.xml").path
        let outcome = try BinaryTests.run(["run", ScenarioTests.examples.path, "--report", "junit=\(report)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let junit = try String(contentsOfFile: report, encoding: .utf8)
        let total = try #require(junit.firstMatch(of: /<testsuites [^>]* time="([0-9]+)\.[0-9]{3}"/))
        // The examples wait hours on the simulated clock; running them takes well under a minute.
        #expect(Int(total.1) ?? 99 < 60, "\(junit)")
    }
}
