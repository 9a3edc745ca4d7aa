import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// `run --report`: JUnit XML read back by a real JUnit consumer, JSON checked against its
/// schema, and GitHub Actions annotations that point at the expectation in the file.
@Suite("Run reports")
@MainActor
struct ReportTests {
    /// A run with a failure, a pass and a skipped scenario, its reports in a fresh directory.
    static func run(extra: [String] = [], environment: [String: String] = [:]) throws -> (
        result: RunResult, directory: String, wrongPrice: String
    ) {
        let retries = try String(
            contentsOf: ScenarioTests.examples.appendingPathComponent("retries.json"), encoding: .utf8)
        let paths = try ScenarioTests.write([
            ("wrong-price.json", retries.replacing(#""price": 999"#, with: #""price": 1099"#)),
            (
                "happy.json",
                #"{"name": "happy & <fine>", "steps": [{"step": "initialize", "expect": {"callback": "onInitialized"}}]}"#
            ),
            ("other.json", #"{"name": "left out", "steps": [{"step": "initialize"}]}"#),
        ])
        let directory = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        let result = runCLI(
            ["run"] + paths + [
                "--filter", "[rh]*", "--report", "junit=\(directory)/report.xml", "--report",
                "json=\(directory)/report.json", "--seed", "1",
            ] + extra, environment: environment)
        return (result, directory, paths[0])
    }

    @Test(
        "the JUnit report reads back in junitparser: a suite per file, a case per scenario, failures with file:line",
        .enabled(
            if: ReportTests.hasJUnitParser || runningInCI,
            "python3 with junitparser is not installed (.ci/run installs it)"))
    func junit() throws {
        let (result, directory, wrongPrice) = try Self.run()
        #expect(result.exitCode == .expectationsFailed)
        let (status, output) = try runProgram(
            "/usr/bin/env",
            [
                "python3",
                DocumentedCommands.root.appendingPathComponent(
                    "Tests/PaylinksCommandLineTests/Clients/junit_summary.py"
                ).path, "\(directory)/report.xml",
            ])
        #expect(status == 0, "\(output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(report["tests"] as? Int == 3)
        #expect(report["failures"] as? Int == 1)
        #expect(report["skipped"] as? Int == 1)
        let suites = try #require(report["suites"] as? [[String: Any]])
        #expect(
            suites.map { $0["name"] as? String } == [wrongPrice, "\(directory)/happy.json", "\(directory)/other.json"])
        let cases = suites.compactMap { ($0["cases"] as? [[String: Any]])?.first }
        #expect(cases.map { $0["name"] as? String } == ["retries", "happy & <fine>", "left out"])
        let failure = try #require((cases[0]["results"] as? [[String: Any]])?.first)
        #expect(failure["kind"] as? String == "failure")
        #expect(failure["message"] as? String == "step 3.3: order.price: expected 1099, got 999")
        #expect(
            failure["text"] as? String
                == "\(wrongPrice):19:91: step 3.3 (purchase): order.price: expected 1099, got 999")
        #expect((cases[1]["results"] as? [Any])?.isEmpty == true)
        #expect((cases[2]["results"] as? [[String: Any]])?.first?["kind"] as? String == "skipped")
        // The wall-clock time, which an in-process run does not measure (MatrixTests.wallTime does).
        #expect(cases[0]["time"] as? Double == 0)
    }

    nonisolated static let hasJUnitParser: Bool = {
        (try? runProgram("/usr/bin/env", ["python3", "-c", "import junitparser"]))?.status == 0
    }()

    @Test("the JSON report follows its schema and says the same; both are the same bytes on every run")
    func json() throws {
        let (result, directory, wrongPrice) = try Self.run()
        let text = try String(contentsOfFile: "\(directory)/report.json", encoding: .utf8)
        let validator = try SchemaValidator(
            file: DocumentedCommands.root.appendingPathComponent("Schemas/run-report.schema.json"))
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(validator.errors(in: value).isEmpty, "\(validator.errors(in: value))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(report["passed"] as? Int == 1 && report["failed"] as? Int == 1 && report["skipped"] as? Int == 1)
        let scenarios = try #require(report["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["status"] as? String } == ["failed", "passed", "skipped"])
        let failure = try #require((scenarios[0]["failures"] as? [[String: Any]])?.first)
        #expect(failure["line"] as? Int == 19 && failure["column"] as? Int == 91)
        #expect(scenarios[0]["file"] as? String == wrongPrice)
        #expect(
            result.stderr.hasSuffix(
                "1 passed, 1 failed, 1 skipped; 4 steps, 7 attempts; expectations: 10 met, 1 failed\n"))
        let xml = try String(contentsOfFile: "\(directory)/report.xml", encoding: .utf8)
        let again = try Self.run()
        #expect(
            try String(contentsOfFile: "\(again.directory)/report.json", encoding: .utf8).replacing(
                again.directory, with: directory) == text)
        #expect(
            try String(contentsOfFile: "\(again.directory)/report.xml", encoding: .utf8).replacing(
                again.directory, with: directory) == xml)
        #expect(xml.contains(#"name="happy &amp; &lt;fine&gt;""#))
    }

    @Test("under GitHub Actions each failed expectation is also an annotation at its line and column")
    func annotations() throws {
        let (result, _, wrongPrice) = try Self.run(environment: ["GITHUB_ACTIONS": "true"])
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(
            annotations == [
                "::error file=\(wrongPrice),line=19,col=91::step 3.3 (purchase): order.price: expected 1099, got 999"
            ])
        #expect(try Self.run().result.stderr.contains("::error") == false)
        let odd = ScenarioRunner.ScenarioResult.Mismatch(
            step: "1", kind: "initialize", message: "100%, done\nnext", position: nil)
        #expect(
            RunReport.annotation(odd, file: "a,b:c.json")
                == "::error file=a%2Cb%3Ac.json::step 1 (initialize): 100%25, done%0Anext")
        // Written to stderr, an annotation is a line of the log, escaped as every other.
        let hostile = ScenarioRunner.ScenarioResult.Mismatch(
            step: "1", kind: "initialize", message: "a\u{1B}[2J\u{9B}\u{202E}b", position: nil)
        #expect(
            RunReport.annotation(hostile, file: "x.json")
                == #"::error file=x.json::step 1 (initialize): a\u{1B}[2J\u{9B}\u{202E}b"#)
    }

    @Test("a report that cannot be written is an error line and exit 74, after the run")
    func unwritable() throws {
        let path = try ScenarioTests.write([("s.json", #"{"steps": [{"step": "initialize"}]}"#)])[0]
        let result = runCLI("run", path, "--report", "junit=/nonexistent-directory/report.xml")
        #expect(result.exitCode == .ioError)
        #expect(
            result.stderr.hasSuffix(
                "error: cannot write the junit report '/nonexistent-directory/report.xml': its directory does not exist; give a path in a directory that exists and can be written\n"
            ))
    }

    @Test("--matrix runs every scenario once per combination, named by it in the output, the lines and the reports")
    func matrix() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = runCLI(
            "run", ScenarioTests.examples.appendingPathComponent("switch-player.json").path, "--matrix",
            "country=US,de",
            "--matrix", "platform=ios,Unity", "--json", "--report", "json=\(directory)/r.json", "--seed", "1")
        // The country is named upper case, as --country reads it; the platform lower case.
        let names = [
            "switch player[country=US,platform=ios]", "switch player[country=US,platform=unity]",
            "switch player[country=DE,platform=ios]", "switch player[country=DE,platform=unity]",
        ]
        var tagged: [String] = []
        for line in result.stdout.split(separator: "\n") {
            guard let range = line.firstRange(of: #""scenario":""#) else { continue }
            let name = String(line[range.upperBound...].prefix { $0 != "\"" })
            if tagged.last != name { tagged.append(name) }
        }
        #expect(tagged == names)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/r.json")))
                as? [String: Any])
        #expect((report["scenarios"] as? [[String: Any]])?.map { $0["name"] as? String } == names)
        // Each combination really runs as it says: German prices in euros, Unity's names.
        #expect(
            result.stdout.contains(
                #""scenario":"switch player[country=DE,platform=unity]","step":1,"callback":"OnInitialized""#))
        #expect(
            result.stdout.contains(#"[country=DE,platform=ios]","step":4,"callback":"onPurchaseSuccess","order":{"#))
        #expect(
            result.stdout.split(separator: "\n").filter {
                $0.contains("[country=DE") && $0.contains(#""currency":"EUR""#)
            }.count > 0)
        for name in names { #expect(result.stderr.contains(name), "\(name)") }
        #expect(MatrixCell.cells(of: []).count == 1)
        #expect(
            MatrixCell.cells(of: [
                .init(key: .country, values: ["US", "DE"]), .init(key: .sdkVersion, values: ["1.9", "2.0"]),
            ]).map(\.label)
                == [
                    "country=US,sdkVersion=1.9", "country=US,sdkVersion=2.0", "country=DE,sdkVersion=1.9",
                    "country=DE,sdkVersion=2.0",
                ])
    }

    nonisolated static let hasPyYAML: Bool = {
        (try? runProgram("/usr/bin/env", ["python3", "-c", "import yaml"]))?.status == 0
    }()

    @Test(
        "the example CI workflow is valid YAML whose jobs run the scenarios through the action and publish their JUnit report, every action pinned by commit",
        .enabled(if: ReportTests.hasPyYAML || runningInCI, "python3 with PyYAML is not installed (.ci/run installs it)")
    )
    func workflow() throws {
        let (status, output) = try runProgram(
            "/usr/bin/env",
            [
                "python3",
                DocumentedCommands.root.appendingPathComponent("Tests/PaylinksCommandLineTests/Clients/yaml_to_json.py")
                    .path,
                DocumentedCommands.root.appendingPathComponent("Examples/ci/paylinks-scenarios.yml").path,
            ])
        #expect(status == 0, "\(output)")
        let workflow = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect((workflow["permissions"] as? [String: Any])?.isEmpty == true, "no permission unless a job asks")
        let jobs = try #require(workflow["jobs"] as? [String: [String: Any]])
        let job = try #require(jobs["scenarios"])
        let steps = try #require(job["steps"] as? [[String: Any]])
        #expect(
            steps.map { $0["name"] as? String } == [
                "Check out the game's repository", "Run the scenarios", "Publish the JUnit report", "Keep the reports",
            ])
        for (name, job) in jobs {
            #expect(job["permissions"] is [String: Any], "job \(name) says which permissions it takes")
            for step in job["steps"] as? [[String: Any]] ?? [] {
                guard let uses = step["uses"] as? String else { continue }
                let commit = uses.split(separator: "@").last.map(String.init) ?? ""
                #expect(
                    commit.count == 40 && commit.allSatisfy(\.isHexDigit), "\(uses) in job \(name) is pinned by commit")
                if uses.hasPrefix("actions/checkout@") {
                    #expect((step["with"] as? [String: Any])?["persist-credentials"] as? Bool == false)
                }
            }
        }
        let action = try #require(steps[1]["with"] as? [String: String])
        #expect((steps[1]["uses"] as? String)?.hasPrefix("your-studio/paylinks@") == true)
        // The command the action runs: paylinks run, the scenarios, then the run arguments.
        let words =
            ["paylinks", "run"]
            + [action["scenarios"], action["run-arguments"]].compactMap { $0 }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) }
        #expect(throws: Never.self) { try ArgumentParser.parse(words) }
        #expect(words.contains("junit=paylinks-junit.xml"))
        #expect((steps[2]["uses"] as? String)?.hasPrefix("mikepenz/action-junit-report@") == true)
        #expect((steps[2]["with"] as? [String: Any])?["report_paths"] as? String == "paylinks-junit.xml")
        #expect(steps[2]["if"] as? String == "always()", "the report is published when scenarios fail")
        let env = try #require(job["env"] as? [String: Any])
        #expect(env["PAYLINKS_SEED"] != nil && env["SOURCE_DATE_EPOCH"] != nil)

        // The game server's job: its tests run inside a sandbox's life, in one line.
        let serverSteps = try #require(jobs["game-server"]?["steps"] as? [[String: Any]])
        let line = try #require(serverSteps.compactMap { $0["run"] as? String }.first)
        let serve = line.split(separator: " ").map(String.init)
        #expect(serve.prefix(2) == ["paylinks", "serve"] && serve.contains("--"))
        #expect(throws: Never.self) { try ArgumentParser.parse(serve) }

        // End to end: the action's command, run in a game's checkout holding the shipped
        // scenarios, passes and writes both reports.
        let checkout = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ScenarioTests.examples, to: checkout.appendingPathComponent("scenarios"))
        let inCheckout = words.dropFirst().map { word in
            word.hasPrefix("scenarios")
                ? checkout.appendingPathComponent(word).path
                : word.replacing("=paylinks-", with: "=\(checkout.path)/paylinks-")
        }
        let variables = env.compactMapValues { $0 as? String }.merging(["GITHUB_ACTIONS": "true"]) { $1 }
        let result = runCLI(Array(inCheckout), environment: variables)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(!result.stderr.contains("::error"), "\(result.stderr)")
        let junit = try String(contentsOf: checkout.appendingPathComponent("paylinks-junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"failures="0" errors="0""#))
        #expect(junit.contains("g3-checkout[platform=unity]"))
        #expect(FileManager.default.fileExists(atPath: checkout.appendingPathComponent("paylinks-report.json").path))
    }
}
