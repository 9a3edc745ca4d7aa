import Foundation
import Testing

/// The transport knows nothing of what it carries: PaylinksHTTP's sources import no other
/// module of the project, read from their import lines, so that a route, a delivery or a
/// JSON shape that creeps into it fails here, whatever Package.swift lets it link.
@Suite("Layers")
struct LayerTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The project's modules: the folders of Sources/.
    static func projectModules() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
    }

    /// The Swift files of the module `module`, in its folder and below.
    static func swiftFiles(of module: String) throws -> [URL] {
        let folder = sources.appendingPathComponent(module)
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// The modules `text` imports: each line that is an import declaration, whatever its
    /// attributes (`@testable`, `@_exported`), its access (`package import`), its kind
    /// (`import struct M.T`) or the `#if` it stands in; comments are not read.
    static func imports(in text: String) -> [String] {
        let modifiers: Set = ["public", "package", "internal", "fileprivate", "private"]
        let kinds: Set = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(String(first)) {
                words = words.dropFirst()
            }
            guard words.first == "import", let path = words.dropFirst().first else { return nil }
            let named = kinds.contains(String(path)) ? words.dropFirst(2).first : path
            return named.flatMap { $0.split(separator: ".").first }.map(String.init)
        }
    }

    @Test(
        "an import is read whatever its attributes, access, kind or #if; a comment or a string is not one",
        arguments: [
            ("import PaylinksKit", ["PaylinksKit"]),
            ("public import PaylinksJSON", ["PaylinksJSON"]),
            ("package import PaylinksAppcharge", ["PaylinksAppcharge"]),
            ("@testable import PaylinksSandbox", ["PaylinksSandbox"]),
            ("@_exported public import PaylinksDelivery", ["PaylinksDelivery"]),
            ("import struct PaylinksKit.Offer", ["PaylinksKit"]),
            ("#if canImport(Glibc)\n    import Glibc\n#endif", ["Glibc"]),
            ("// import PaylinksKit\n/// import PaylinksJSON", []),
            ("let text = \"import PaylinksKit\"", []),
        ])
    func importsAreRead(text: String, modules: [String]) {
        #expect(Self.imports(in: text) == modules)
    }

    @Test("PaylinksHTTP imports no other module of the project: sockets and parsers know nothing of what they carry")
    func transportStandsAlone() throws {
        let project = try Self.projectModules()
        #expect(project.isSuperset(of: ["PaylinksHTTP", "PaylinksKit", "PaylinksJSON", "PaylinksSandbox"]))
        let files = try Self.swiftFiles(of: "PaylinksHTTP")
        #expect(!files.isEmpty, "the transport's files are read")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let imported = Self.imports(in: text).filter { project.contains($0) && $0 != "PaylinksHTTP" }
            #expect(imported.isEmpty, "\(file.lastPathComponent) imports \(imported.joined(separator: ", "))")
        }
    }

    /// The files that talk to the C library, by their paths under Sources/: every other
    /// file reaches it through them.
    static let cLibraryFiles: Set = [
        "PaylinksCommandLine/System/ChildProcess.swift",
        "PaylinksCommandLine/System/System.swift",
        "PaylinksHTTP/Clock.swift",
        "PaylinksHTTP/HTTPFields.swift",
        "PaylinksHTTP/Listener.swift",
        "PaylinksHTTP/Lock.swift",
        "PaylinksHTTP/Socket.swift",
        "PaylinksHTTP/Threads.swift",
    ]

    @Test("only the files named import the C library (Glibc, Musl or Darwin): libc is chosen in them alone")
    func cLibraryInNamedFiles() throws {
        let cLibraries: Set = ["Glibc", "Musl", "Darwin"]
        var importing: Set<String> = []
        for module in try Self.projectModules() {
            for file in try Self.swiftFiles(of: module) {
                let text = try String(contentsOf: file, encoding: .utf8)
                guard Self.imports(in: text).contains(where: cLibraries.contains) else { continue }
                importing.insert(file.path.components(separatedBy: "/Sources/").last ?? file.path)
            }
        }
        #expect(importing == Self.cLibraryFiles)
    }
}
