import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// `run --jobs N`: the scenarios shared among copies of the built binary, with output,
/// reports and exit code byte for byte those of one process.
@Suite("Parallel runs")
@MainActor
struct JobsTests {
    /// The example scenarios, one that fails, one without a seed or expectation, in one directory.
    static func directory(broken: String? = nil) throws -> String {
        var files = try ScenarioTests.exampleFiles.map { name in
            (name, try String(contentsOf: ScenarioTests.examples.appendingPathComponent(name), encoding: .utf8))
        }
        let retries = files.first { $0.0 == "retries.json" }?.1 ?? ""
        files.append(("wrong-price.json", retries.replacing(#""price": 999"#, with: #""price": 1099"#)))
        files.append(
            (
                "z-plain.json",
                #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001", "country": "NZ"}]}"#
            ))
        if let broken { files.append((broken, #"{"steps": [}"#)) }
        let paths = try ScenarioTests.write(files)
        return URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
    }

    /// The run with `options` on one process and on `jobs`: stdout, stderr, exit code and
    /// both reports must be the same bytes.
    func compare(_ directory: String, _ options: [String], jobs: Int = 3, environment: [String: String] = [:]) throws
        -> BinaryTests.Outcome
    {
        var runs: [(BinaryTests.Outcome, String, String)] = []
        for count in [1, jobs] {
            let reports = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
            let outcome = try BinaryTests.run(
                [
                    "run", directory, "--jobs", String(count), "--report", "junit=\(reports)/r.xml", "--report",
                    "json=\(reports)/r.json",
                ] + options,
                // One clock for both runs, which may fall in different seconds.
                environment: ["SOURCE_DATE_EPOCH": "1718182312"].merging(environment) { $1 })
            // JUnit's times are the wall clock's, which differs from run to run.
            let junit = ((try? String(contentsOfFile: "\(reports)/r.xml", encoding: .utf8)) ?? "none")
                .replacing(/time="[0-9]+\.[0-9]{3}"/, with: #"time="-""#)
            let json = (try? String(contentsOfFile: "\(reports)/r.json", encoding: .utf8)) ?? "none"
            runs.append((outcome, junit, json))
        }
        let (one, many) = (runs[0], runs[1])
        #expect(many.0.status == one.0.status, "\(options)")
        #expect(many.0.stdout == one.0.stdout, "\(options)")
        #expect(many.0.stderr == one.0.stderr, "\(options)")
        #expect(many.1 == one.1, "\(options): the JUnit report")
        #expect(many.2 == one.2, "\(options): the JSON report")
        return one.0
    }

    @Test("every way of running gives the same bytes on three processes as on one")
    func sameBytes() throws {
        let directory = try Self.directory()
        let plain = try compare(directory, ["--seed", "5", "--now", "1718182312", "--json"])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("FAIL  retries  step 3.3: order.price: expected 1099, got 999"))
        // Every example and the plain scenario pass; the wrong price fails.
        #expect(plain.stderr.contains("\(ScenarioTests.exampleFiles.count + 1) passed, 1 failed; "))
        #expect(plain.stderr.contains("; seed 5\n"), "the plain scenario's ids came from the run's seed")
        #expect(plain.stderr.components(separatedBy: "NZ has no prices").count <= 2, "a note is said once")
        for options in [
            ["--seed", "5", "--fail-fast"], ["--seed", "5", "--filter", "*e*"],
            ["--seed", "5", "--matrix", "country=US,DE"],
            ["--seed", "9", "--fault-rate", "0.4"], ["--seed", "5", "--trace"],
            ["--seed", "5", "--format", "wire", "--platform", "unity"],
        ] {
            _ = try compare(directory, options)
        }
        let annotated = try compare(directory, ["--seed", "5"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.stderr.contains("::error file="))
        let none = try compare(directory, ["--filter", "nothing"])
        #expect(none.status == 64 && none.stderr.hasPrefix("error: no scenario is named like 'nothing'"))
    }

    @Test(
        "a broken file stops the run before any callback, reported as one process reports it",
        arguments: ["x-broken.json", "0-broken.json"])
    func brokenFile(name: String) throws {
        // Last, the copy with it ends after the others; first, the others are stopped.
        let outcome = try compare(
            try Self.directory(broken: name), ["--seed", "5"], jobs: 2, environment: ["GITHUB_ACTIONS": "true"])
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("\(name):1:12: "))
        #expect(outcome.stderr.hasPrefix("::error file="), "the annotation, then the message")
    }

    @Test("a copy's frames come back in order, whatever their bytes; a frame cut short ends them")
    func frames() {
        let text = RunWorker.frame(.output, "a\n7\nb") + RunWorker.frame(.error, "") + RunWorker.frame(.scenarios, "é")
        func frames(of text: String, upTo limit: Int = .max) -> [String] {
            var seen: [String] = []
            Array(text.utf8).withUnsafeBytes { bytes in
                RunWorker.forEachFrame(in: bytes) { tag, payload in
                    seen.append(String(UnicodeScalar(tag)) + String(decoding: payload, as: UTF8.self))
                    return seen.count < limit
                }
            }
            return seen
        }
        #expect(frames(of: text) == ["Oa\n7\nb", "E", "Mé"])
        #expect(frames(of: text, upTo: 1) == ["Oa\n7\nb"], "a frame refused ends them")
        #expect(frames(of: String(text.dropLast())) == ["Oa\n7\nb", "E"], "the last frame cut short")
        #expect(frames(of: "O\nabc").isEmpty, "a frame without a length")
        #expect(frames(of: "O99999999999999999999999\nabc").isEmpty, "a length too long to be true")
        #expect(frames(of: "O2x\nab").isEmpty, "a length that is not a number")
    }

    @Test("both streams into one pipe interleave as one process writes them")
    func interleaving() throws {
        let directory = try Self.directory()
        let binary = try BinaryTests.builtExecutable().path
        var outputs: [String] = []
        for jobs in ["1", "3"] {
            let (_, output) = try runProgram(
                "/bin/sh",
                [
                    "-c", "\"$0\" run \"$1\" --seed 5 --now 1718182312 --trace --jobs \"$2\" 2>&1", binary, directory,
                    jobs,
                ])
            outputs.append(output)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].contains("trace ") && outputs[0].contains("ok    cancels"))
    }
}
