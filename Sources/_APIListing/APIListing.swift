public import Foundation

/// The public API of a module as lines of text, read from the compiler's symbol graph:
/// one line per declaration, `Path.to.member: declaration`, then one line per conformance,
/// sorted, so that a diff of two listings shows exactly what changed.
public enum APIListing {
    /// Why a listing could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Extracts the symbol graph of `module` from the built modules in `modulesDirectory`
    /// with `swift symbolgraph-extract`, and lists its public declarations.
    public static func listing(module: String, modulesDirectory: URL) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "symbolgraph-extract", "-module-name", module, "-I", modulesDirectory.path,
            "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", output.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "swift symbolgraph-extract failed: \(String(decoding: message, as: UTF8.self))")
        }
        let graph = try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
        return try listing(symbolGraph: graph)
    }

    /// The listing of a symbol graph's JSON.
    public static func listing(symbolGraph: Data) throws -> String {
        guard let root = try JSONSerialization.jsonObject(with: symbolGraph) as? [String: Any],
            let symbols = root["symbols"] as? [[String: Any]]
        else { throw Failure(description: "not a symbol graph") }
        var paths: [String: String] = [:]
        var lines: [String] = []
        for symbol in symbols {
            guard let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                let components = symbol["pathComponents"] as? [String],
                let fragments = symbol["declarationFragments"] as? [[String: Any]]
            else { continue }
            let path = components.joined(separator: ".")
            paths[identifier] = path
            let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
            lines.append("\(path): \(collapsingWhiteSpace(declaration))")
        }
        for relationship in root["relationships"] as? [[String: Any]] ?? [] {
            guard relationship["kind"] as? String == "conformsTo",
                let source = relationship["source"] as? String, let type = paths[source],
                let target = relationship["target"] as? String
            else { continue }
            let fallback = relationship["targetFallback"] as? String
            let name = paths[target] ?? fallback ?? target
            // Marker protocols that toolchains add or leave out say nothing about the API.
            guard
                !["SendableMetatype", "Copyable", "Escapable", "BitwiseCopyable"].contains(where: { name.hasSuffix($0) }
                )
            else { continue }
            lines.append("\(type) conforms to \(name.split(separator: ".").last.map(String.init) ?? name)")
        }
        return Set(lines).sorted().joined(separator: "\n") + "\n"
    }

    private static func collapsingWhiteSpace(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}
