import Foundation
import Testing

@testable import PaylinksCommandLine

/// One documented command, or one block of them, as a shell runs it.
struct DocumentedCommand: CustomTestStringConvertible, Sendable {
    /// Where it is documented: `README.md:120`.
    var place: String
    /// The bash script that runs it; a script made from a block checks each command's
    /// exit code itself and exits 1 when one differs.
    var script: String
    /// The exit code the script must end with.
    var exitCode: Int32
    /// The bytes it must print (standard output and error together), when the
    /// documentation shows them.
    var output: String?

    var testDescription: String { place }

    /// Whether it needs jq, which a machine may lack.
    var needsJQ: Bool { script.contains("jq ") }
}

/// Reads the commands of the README's `sh` and `console` blocks and of the help's and
/// the manual page's examples.
enum DocumentedCommands {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every runnable command: the README's blocks and the help's examples.
    static let all: [DocumentedCommand] =
        readme()
        + Help.examples.enumerated().map { index, example in
            DocumentedCommand(
                place: "help example \(index + 1)", script: example.command, exitCode: example.exitCode.rawValue,
                output: nil)
        }

    /// The README's lines that run `make` or `swift`: CI runs them (see `.ci/run`), not
    /// this suite, which they would run again.
    static let buildCommands: [(place: String, command: String)] = blocks().flatMap { block in
        block.language == "sh" ? block.lines.filter { isBuildCommand($0.text) }.map { (place($0.number), $0.text) } : []
    }

    static func isBuildCommand(_ line: String) -> Bool {
        line.hasPrefix("make ") || line.hasPrefix("swift ")
    }

    private static func place(_ line: Int) -> String { "README.md:\(line)" }

    /// A fenced block: its language and its lines, numbered as in the file.
    struct Block {
        var language: String
        var lines: [(number: Int, text: String)]
    }

    static func blocks() -> [Block] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) else {
            return []
        }
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = Block(language: String(line.dropFirst(3)), lines: [])
                }
            } else {
                current?.lines.append((index + 1, line))
            }
        }
        return blocks
    }

    static func readme() -> [DocumentedCommand] {
        blocks().flatMap { block -> [DocumentedCommand] in
            switch block.language {
            case "sh": return [script(for: block)].compactMap { $0 }
            case "console": return console(block)
            default: return []
            }
        }
    }

    /// A `sh` block as one script: each command line is followed by a check of its exit
    /// code (`# ... exit N` in its comment, 0 without one) that leaves `$?` as the command
    /// left it. Lines inside a here-document or a `case` are the shell's, unchecked.
    private static func script(for block: Block) -> DocumentedCommand? {
        var lines: [String] = ["set -o pipefail", "failed=0"]
        var pending = ""
        var first: Int?
        var hereDocumentEnd: String?
        var caseDepth = 0
        for (number, text) in block.lines {
            if let end = hereDocumentEnd {
                lines.append(text)
                if text == end { hereDocumentEnd = nil }
                continue
            }
            let line = pending + text
            if line.hasSuffix("\\") {
                pending = String(line.dropLast()) + " "
                continue
            }
            if leavesQuoteOpen(line) {
                pending = line + "\n"
                continue
            }
            pending = ""
            if isBuildCommand(line) { continue }
            first = first ?? number
            let (command, comment) = splitComment(line)
            if let marker = command.range(of: "<<") {
                hereDocumentEnd = command[marker.upperBound...].trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "'\"-"))
            }
            if command.hasPrefix("case ") { caseDepth += 1 }
            if command == "esac" { caseDepth -= 1 }
            guard !command.isEmpty, caseDepth == 0, command != "esac", hereDocumentEnd == nil else {
                lines.append(line)
                continue
            }
            let expected = exitCode(in: comment)
            let shown = command.replacingOccurrences(of: "'", with: "'\\''")
            lines.append(command)
            lines.append(
                "status=$?; if [ $status -ne \(expected) ]; then echo 'README.md:\(number): exit '$status', "
                    + "documented \(expected): \(shown)' >&2; failed=1; fi; (exit $status)")
        }
        guard let first else { return nil }
        lines.append("exit $failed")
        return DocumentedCommand(
            place: place(first), script: lines.joined(separator: "\n"), exitCode: 0, output: nil)
    }

    /// A `console` block: each `$ ` line is a command, and the lines up to the next one
    /// are what it prints.
    private static func console(_ block: Block) -> [DocumentedCommand] {
        var commands: [DocumentedCommand] = []
        for (number, text) in block.lines {
            if text.hasPrefix("$ ") {
                let (command, comment) = splitComment(String(text.dropFirst(2)))
                commands.append(
                    DocumentedCommand(
                        place: place(number), script: command, exitCode: exitCode(in: comment), output: ""))
            } else if !commands.isEmpty {
                commands[commands.count - 1].output? += text + "\n"
            }
        }
        return commands
    }

    /// A line without its trailing `# comment`, and the comment; a `#` inside quotes is
    /// part of the command.
    static func splitComment(_ line: String) -> (command: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " {
                let command = line[..<index].trimmingCharacters(in: .whitespaces)
                return (command, String(line[line.index(after: index)...]))
            }
            previous = character
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    /// Whether a quote opened on `line` is still open at its end.
    static func leavesQuoteOpen(_ line: String) -> Bool {
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", quote == nil {
                break
            }
        }
        return quote != nil
    }

    /// The exit code a comment documents (`onPurchaseFailed, exit 12`), or 0.
    static func exitCode(in comment: String) -> Int32 {
        guard let range = comment.range(of: #"exit \d+"#, options: .regularExpression) else { return 0 }
        return Int32(comment[range].dropFirst(5)) ?? 0
    }
}

/// Tier 3: every command the README, the help and the manual page show runs, from a copy
/// of the repository's fixtures, and exits as documented; where the README shows what a
/// seeded command prints, the bytes match. Documentation cannot drift from the tool.
@Suite("Executable documentation")
struct ExecutableDocsTests {
    /// The Swift blocks of the library's getting-started article, in order.
    static func articleBlocks() throws -> [String] {
        let article = try String(
            contentsOf: DocumentedCommands.root.appendingPathComponent(
                "Sources/PaylinksKit/PaylinksKit.docc/GettingStarted.md"), encoding: .utf8)
        return article.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "```\n").first
        }
    }

    @Test(
        "the getting-started article's code is Examples/StoreTests' code, file for file, which CI compiles and runs")
    func gettingStarted() throws {
        let example = DocumentedCommands.root.appendingPathComponent("Examples/StoreTests")
        let testFiles = try FileManager.default.contentsOfDirectory(
            atPath: example.appendingPathComponent("Tests/StoreTests").path
        ).map { try String(contentsOf: example.appendingPathComponent("Tests/StoreTests/\($0)"), encoding: .utf8) }
        let blocks = try Self.articleBlocks()
        let files = blocks.filter { $0.hasPrefix("import ") }
        #expect(files.count == 2, "the adapter and the test")
        for block in files {
            #expect(testFiles.contains(block), "a block of the article is no file of Examples/StoreTests:\n\(block)")
        }
        // The seam, as the article shows it: the example's protocol without its doc comments.
        let payments = try String(
            contentsOf: example.appendingPathComponent("Sources/Store/Payments.swift"), encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///")
        }.joined(separator: "\n")
        let seam = try #require(blocks.first { $0.contains("protocol Payments") })
        #expect(payments.contains(seam), "\(seam)")
        // The package: the example's manifest names the same product.
        let manifest = try String(contentsOf: example.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(blocks.first?.contains(#".product(name: "PaylinksKit", package: "paylinks")"#) == true)
        #expect(manifest.contains(#".product(name: "PaylinksKit", package: paylinks)"#))
    }

    static let hasJQ = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"].contains {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test("the README, the help and the manual page show commands to run")
    func found() {
        #expect(DocumentedCommands.all.contains { $0.output != nil }, "the README shows output")
        #expect(DocumentedCommands.all.contains { $0.place.hasPrefix("help example") })
        #expect(
            DocumentedCommands.buildCommands.map { DocumentedCommands.splitComment($0.command).command }.contains(
                "make test"))
    }

    @Test(
        "each documented command exits as documented and prints what is shown",
        arguments: DocumentedCommands.all.filter { !$0.needsJQ })
    func runs(_ command: DocumentedCommand) throws {
        try check(command)
    }

    @Test(
        "each documented command with jq exits as documented",
        .enabled(if: hasJQ || runningInCI, "jq is not installed"),
        arguments: DocumentedCommands.all.filter(\.needsJQ))
    func runsWithJQ(_ command: DocumentedCommand) throws {
        try check(command)
    }

    @Test("the README's build commands are Makefile targets or what CI runs")
    func buildCommands() throws {
        let makefile = try String(
            contentsOf: DocumentedCommands.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let ci = try String(contentsOf: DocumentedCommands.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let phony = makefile.components(separatedBy: "\n").first { $0.hasPrefix(".PHONY:") } ?? ""
        let targets = Set(phony.dropFirst(".PHONY:".count).split(separator: " ").map(String.init))
        for (place, line) in DocumentedCommands.buildCommands {
            let command = DocumentedCommands.splitComment(line).command
            if command.hasPrefix("make ") {
                let target = command.split(separator: " ")[1]
                #expect(targets.contains(String(target)), "\(place): no make target '\(target)'")
            } else {
                #expect(ci.contains(command), "\(place): .ci/run does not run '\(command)'")
            }
        }
    }

    @Test(
        "each Swift example of the README compiles against the library, without a warning",
        .enabled(
            if: FileManager.default.fileExists(
                atPath: DocumentedCommands.root.appendingPathComponent(".build/debug/Modules/PaylinksKit.swiftmodule")
                    .path),
            "the library's module is not in .build/debug/Modules"))
    func swiftExamples() throws {
        let snippets = DocumentedCommands.blocks().filter { $0.language == "swift" }
        #expect(!snippets.isEmpty)
        for snippet in snippets {
            let (status, text) = try typecheckSwift(snippet.lines.map(\.text).joined(separator: "\n"))
            let line = snippet.lines.first?.number ?? 0
            #expect(status == 0, "README.md:\(line): \(text)")
        }
    }

    @Test("a scenario the README shows is the shipped file, byte for byte")
    func shownScenarios() throws {
        let shown = DocumentedCommands.blocks().filter { $0.language == "json" }.map { block in
            block.lines.map(\.text).joined(separator: "\n") + "\n"
        }
        var compared = 0
        for text in shown {
            guard let range = text.range(of: #""name": "([a-z-]+)""#, options: .regularExpression) else { continue }
            let name = text[range].split(separator: "\"")[2]
            let file = DocumentedCommands.root.appendingPathComponent("Fixtures/scenarios/\(name).json")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            #expect(try String(contentsOf: file, encoding: .utf8) == text, "README.md's \(name).json")
            compared += 1
        }
        #expect(compared > 0, "the README shows an example scenario")
    }

    @Test("the manual page shows the help's examples and each command's usage as the help does")
    func manPageExamples() {
        let page = ManPage.roff()
        for example in Help.examples {
            #expect(page.contains(ManPage.escape(example.command)), "\(example.command)")
        }
        for command in Command.allCases {
            #expect(page.contains(".B \(ManPage.escape(command.usage))\n"), "\(command.rawValue)")
            #expect(Help.command(command).contains("USAGE\n  \(command.usage)\n"), "\(command.rawValue)")
        }
    }

    private func check(_ command: DocumentedCommand) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for folder in ["Fixtures", "Examples/game-server", "Examples/links"] {
            let target = scratch.appendingPathComponent(folder)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: DocumentedCommands.root.appendingPathComponent(folder), to: target)
        }
        let products = try BinaryTests.builtExecutable().deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command.script]
        process.currentDirectoryURL = scratch
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = scratch.path
        for name in ["PAYLINKS_FIXTURES", "NO_COLOR", "GITHUB_ACTIONS", "PAYLINKS_SEED", "SOURCE_DATE_EPOCH"] {
            environment[name] = nil
        }
        // Commands that talk to "$endpoint" get the example award receiver, started here.
        var receiver: ExampleGameServer?
        if command.script.contains("$endpoint") {
            let started = try ExampleGameServer()
            environment["endpoint"] = started.url
            receiver = started
        }
        defer { withExtendedLifetime(receiver) {} }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == command.exitCode, "\(command.place): \(output.prefix(2000))")
        if let expected = command.output {
            #expect(output == expected, "\(command.place) prints other bytes than the README shows")
        }
    }
}
