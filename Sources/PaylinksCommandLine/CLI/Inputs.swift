import PaylinksFixtures
import PaylinksKit

/// What paylinks reads before a command runs: the defaults the environment gives, the
/// catalog of `--fixtures`, and any file it was pointed at, each failure as the
/// ``CLIError`` that names the file and says how to fix it.
enum Inputs {
    /// The largest fixture file paylinks reads; real fixtures are a few kilobytes.
    static let fixtureSizeLimit = 1 << 20

    /// `PAYLINKS_SEED` and `SOURCE_DATE_EPOCH` (the reproducible-builds convention) give
    /// the defaults of `--seed` and `--now`, so that a CI job replays the same bytes without
    /// either; the options win. `serve` keeps the real clock, whose sessions expire, unless
    /// its clock is virtual: then SOURCE_DATE_EPOCH is where it starts.
    static func environmentDefaults(_ given: RunOptions, command: Command, environment: (String) -> String?)
        throws(CLIError) -> RunOptions
    {
        var options = given
        if options.seed == nil, let text = environment(EnvironmentVariable.seed.rawValue), !text.isEmpty {
            guard let seed = UInt64(text) else {
                throw .usage(
                    "PAYLINKS_SEED is '\(MessageText.sanitized(text))': give a number from 0 to \(UInt64.max), or unset it",
                    command: command)
            }
            options.seed = seed
        }
        if options.now == nil, command != .serve || options.clockMode == .virtual,
            let text = environment(EnvironmentVariable.sourceDateEpoch.rawValue),
            !text.isEmpty
        {
            guard let now = Int(text), (0...OptionSpec.maximumTimestamp).contains(now) else {
                throw .usage(
                    "SOURCE_DATE_EPOCH is '\(MessageText.sanitized(text))': give Unix seconds from 0 to "
                        + "\(OptionSpec.maximumTimestamp), or unset it", command: command)
            }
            options.now = now
        }
        return options
    }

    /// The catalog: built in, with the files of `--fixtures` or `PAYLINKS_FIXTURES` in
    /// place of the built-in ones they name.
    static func loadCatalog(_ options: RunOptions, environment: (String) -> String?) throws(CLIError) -> Catalog {
        let directory: String
        let origin: String
        if let path = options.fixtures {
            (directory, origin) = (path, "fixture directory '\(MessageText.sanitized(path))' (--fixtures)")
        } else if let path = environment(EnvironmentVariable.fixtures.rawValue), !path.isEmpty {
            (directory, origin) = (path, "fixture directory '\(MessageText.sanitized(path))' (PAYLINKS_FIXTURES)")
        } else {
            return Catalog.builtIn
        }
        let sources = try fixtureSources(in: directory, origin: origin)
        do {
            return try CatalogLoader.load(
                offers: sources[.offers], pricePoints: sources[.pricePoints], statusCodes: sources[.statusCodes],
                g1StatusCodes: sources[.g1StatusCodes], g3StatusCodes: sources[.g3StatusCodes])
        } catch {
            throw .invalidFixture(error)
        }
    }

    static func fixtureSources(in directory: String, origin: String) throws(CLIError)
        -> [FixtureFile: FixtureSource]
    {
        let names: [String]
        do {
            names = try System.directoryEntries(directory)
        } catch .missing {
            throw .noInput(
                "\(origin) does not exist; give a directory holding offers.json, price-points.json or status-codes.json"
            )
        } catch .wrongKind {
            throw .noInput("\(origin) is a file, not a directory; give the directory that holds it")
        } catch {
            throw .noInput("\(origin) cannot be read: \(describe(error))")
        }
        let known = FixtureFile.allCases.map(\.rawValue)
        var sources: [FixtureFile: FixtureSource] = [:]
        for name in names where name.hasSuffix(".json") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let file = FixtureFile(rawValue: name) else {
                let hint =
                    Suggestion.hint(for: name, among: known, quoted: .bare)
                    ?? "; fixture files are " + known.joined(separator: ", ")
                throw .invalidFixture(
                    FixtureError(file: path, position: nil, path: nil, reason: "not a fixture file name\(hint)"))
            }
            sources[file] = try readInput(path, kind: "fixture file", limit: fixtureSizeLimit)
        }
        guard !sources.isEmpty else {
            throw .noInput("\(origin) holds none of \(known.joined(separator: ", ")); add at least one")
        }
        return sources
    }

    /// Reads a file paylinks was pointed at: a missing or unreadable one is `noInput`
    /// (66), one over `limit` is invalid data (65), refused before it is read whole.
    static func readInput(_ path: String, kind: String, limit: Int) throws(CLIError) -> FixtureSource {
        let shown = MessageText.sanitized(path)
        do {
            return FixtureSource(name: path, bytes: try System.readFile(path, limit: limit))
        } catch .missing {
            throw .noInput("\(kind) '\(shown)' does not exist")
        } catch .wrongKind {
            throw .noInput("'\(shown)' is a directory; give the \(kind)s in it")
        } catch .notAFile {
            let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            throw .noInput(
                "'\(shown)' is not a regular file (a FIFO, a socket or a device); give \(article) \(kind) on disk")
        } catch .tooLarge(let limit) {
            let size = limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit)-byte"
            throw .invalidFixture(
                FixtureError(file: path, position: nil, path: nil, reason: "larger than the \(size) limit for \(kind)s")
            )
        } catch {
            throw .noInput("cannot read \(shown): \(describe(error))")
        }
    }

    static func describe(_ error: FileSystemError) -> String {
        switch error {
        case .missing: "it does not exist"
        case .wrongKind: "it is a directory"
        case .unreadable(let reason), .unwritable(let reason): reason
        case .tooLarge(let limit): "it is larger than \(limit) bytes"
        case .notAFile: "it is not a regular file (a FIFO, a socket or a device)"
        }
    }
}
