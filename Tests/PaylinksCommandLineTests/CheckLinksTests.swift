import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `paylinks check-links`: the example files, and link files served by a server the test
/// starts on 127.0.0.1 as a domain might serve them, right and wrong.
@Suite("paylinks check-links")
@MainActor
struct CheckLinksTests {
    static let good = ["Examples/links/good/apple-app-site-association", "Examples/links/good/assetlinks.json"]
    static let bad = ["Examples/links/bad/apple-app-site-association", "Examples/links/bad/assetlinks.json"]
    static let redirect = ["--redirect-url", "https://game.example/return"]

    @Test("the good examples: 0, and the summary line alone")
    func goodFiles() {
        let result = runCLI(["check-links"] + Self.good + Self.redirect)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stdout == "check-links: 2 files: 0 problems\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("the bad examples: 1, a line per finding naming the file, the JSON path, the rule and the fix")
    func badFiles() {
        let result = runCLI(["check-links"] + Self.bad + Self.redirect)
        #expect(result.exitCode == .expectationsFailed)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.last == "check-links: 2 files: 6 problems, 1 note")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "FAIL  Examples/links/bad/apple-app-site-association  $.applinks.details  redirect-covered: ")
                    && $0.contains("; fix: ")
            })
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "--json: one object per finding, with the file, the JSON path, the rule, the severity, what and the fix, then the summary"
    )
    func json() throws {
        let result = runCLI(["check-links", Self.bad[1], "--json"])
        #expect(result.exitCode == .expectationsFailed)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(
            lines.first
                == #"{"file":"Examples/links/bad/assetlinks.json","path":"$[0].relation","rule":"relation","severity":"problem","what":"relation does not hold delegate_permission/common.handle_all_urls","fix":"write \"relation\": [\"delegate_permission/common.handle_all_urls\"]"}"#
        )
        #expect(lines.last == #"{"summary":{"files":1,"problems":3,"notes":0}}"#)
    }

    @Test(
        "--redirect-url is checked as a return URL: 64, one error line, nothing checked",
        arguments: [
            ("/return", "is not an absolute URL with a scheme"), ("javascript:x", "has the scheme javascript:"),
        ])
    func badRedirect(url: String, reason: String) {
        let result = runCLI(["check-links"] + Self.good + ["--redirect-url", url])
        #expect(result.exitCode == .usage)
        #expect(result.stderr.hasPrefix("error: --redirect-url '\(url)' \(reason)"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--kind forces what a file is: an AASA read as assetlinks.json is not an array")
    func kind() {
        let result = runCLI(["check-links", Self.good[0], "--kind", "assetlinks"])
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stdout.hasPrefix("FAIL  \(Self.good[0])  $  assetlinks-array: "))
        #expect(runCLI(["check-links", Self.good[0], "--kind", "aas"]).exitCode == .usage)
    }

    @Test("a missing file is 66, a file that is not JSON 65, each with one error line; the others are checked")
    func unreadable() throws {
        let missing = runCLI(["check-links", "no-such-file", Self.bad[1]])
        #expect(missing.exitCode == .noInput)
        #expect(missing.stderr == "error: no-such-file: no such file; give the path of the file to check\n")
        #expect(missing.stdout.hasSuffix("check-links: 1 file: 3 problems\n"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("check-links-\(getpid()).json").path
        try Data("{\"applinks\": ".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let broken = runCLI(["check-links", path])
        #expect(broken.exitCode == .dataError)
        #expect(broken.stderr.hasPrefix("error: \(path):1:14: not JSON: "), "\(broken.stderr)")
    }

    @Test(
        "an https URL or another machine's is refused with 64 before anything is read, saying to download it",
        arguments: ["https://game.example", "http://game.example/.well-known/assetlinks.json", "http://10.0.0.1:8080"])
    func refusedURL(url: String) {
        let result = runCLI(["check-links", Self.good[0], url])
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("download the file first, such as with 'curl -fso "), "\(result.stderr)")
    }

    /// A server on 127.0.0.1 answering each path with what `routes` gives it, 404 else.
    static func serve(_ routes: [String: HTTPServerResponse]) throws -> EventReceiver {
        try EventReceiver { _, request in
            routes[request.path] ?? HTTPServerResponse(status: 404, contentType: "text/plain", body: [])
        }
    }

    static func file(_ path: String, contentType: String = "application/json") throws -> HTTPServerResponse {
        HTTPServerResponse(
            status: 200, contentType: contentType, body: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("a base URL: both well-known paths fetched and checked, 0 when both are right")
    func servedWell() throws {
        let server = try Self.serve([
            "/.well-known/apple-app-site-association": try Self.file(Self.good[0]),
            "/.well-known/assetlinks.json": try Self.file(Self.good[1]),
        ])
        let result = runCLI([
            "check-links", "http://127.0.0.1:\(server.port)", "--redirect-url", "https://127.0.0.1/return",
        ])
        #expect(result.exitCode == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "check-links: 2 files: 0 problems\n")
    }

    @Test("served wrong: a wrong Content-Type, a redirect, a .json path, a 404, the redirect URL on another host")
    func servedWrong() throws {
        let server = try Self.serve([
            "/.well-known/apple-app-site-association": try Self.file(Self.good[0], contentType: "text/plain"),
            "/.well-known/assetlinks.json": HTTPServerResponse(
                status: 301, headers: [HTTPHeader("Location", "/assetlinks.json")], body: []),
            "/.well-known/apple-app-site-association.json": try Self.file(Self.good[0]),
        ])
        let base = "http://127.0.0.1:\(server.port)"
        let result = runCLI(
            ["check-links", base, "\(base)/.well-known/apple-app-site-association.json", "\(base)/missing"]
                + Self.redirect)
        #expect(result.exitCode == .expectationsFailed)
        let rules = result.stdout.split(separator: "\n").dropLast().map { line in
            line.split(separator: "  ")[3].split(separator: ":")[0]
        }
        #expect(
            rules == [
                "content-type", "redirect-host", "no-redirect", "well-known-path", "redirect-host", "well-known-path",
                "status-200",
            ], "\(result.stdout)")
        #expect(result.stdout.hasSuffix("check-links: 4 files: 7 problems\n"))
    }

    @Test("a file named apple-app-site-association.json breaks well-known-path, as a URL of that name does")
    func jsonFileName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("apple-app-site-association.json").path
        try Data(contentsOf: URL(fileURLWithPath: Self.good[0])).write(to: URL(fileURLWithPath: path))
        let result = runCLI(["check-links", path] + Self.redirect)
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stdout.hasPrefix("FAIL  \(path)  -  well-known-path: "), "\(result.stdout)")
        #expect(result.stdout.contains("without a .json extension"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("check-links: 1 file: 1 problem\n"), "\(result.stdout)")
    }

    @Test("a 404 at the AASA's path of a server that serves it at .json: the finding says to drop the extension")
    func servedAtJSONPath() throws {
        let server = try Self.serve([
            "/.well-known/apple-app-site-association.json": try Self.file(Self.good[0])
        ])
        let result = runCLI(["check-links", "http://127.0.0.1:\(server.port)", "--kind", "aasa"])
        #expect(result.exitCode == .expectationsFailed)
        #expect(
            result.stdout.contains(
                "status-200: the answer is 404; fix: it is served at /.well-known/apple-app-site-association.json: "
                    + "serve it without the extension"), "\(result.stdout)")
    }

    @Test("nothing answering at a URL is 69, with one error line")
    func notAnswering() throws {
        let port = try HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPServerResponse(status: 500, body: []) }.port
        let result = runCLI(["check-links", "http://127.0.0.1:\(port)/.well-known/assetlinks.json"])
        #expect(result.exitCode == .unavailable)
        #expect(
            result.stderr.hasPrefix("error: nothing answers at http://127.0.0.1:\(port)/.well-known/assetlinks.json: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
}
