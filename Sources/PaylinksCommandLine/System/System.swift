// The one file of the command line that talks to the C library: files, the clock, entropy,
// signals, exit.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong reading from the file system, in words for a message.
public enum FileSystemError: Error, Equatable, Sendable {
    /// Nothing exists at the path.
    case missing
    /// The path exists but is not a directory (for a directory) or is one (for a file).
    case wrongKind
    /// The path exists but could not be read: the reason from the system.
    case unreadable(String)
    /// The file is larger than the limit given.
    case tooLarge(limit: Int)
}

/// Thin, throwing wrappers over the C library.
public enum System {
    /// Whether `path` is a directory; nil when nothing is there.
    public static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names of the entries of a directory, sorted.
    public static func directoryEntries(_ path: String) throws(FileSystemError) -> [String] {
        switch isDirectory(path) {
        case nil: throw .missing
        case false: throw .wrongKind
        case true: break
        }
        guard let directory = opendir(path) else { throw .unreadable(lastErrorDescription()) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The bytes of a regular file, refusing one larger than `limit` before reading it.
    public static func readFile(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        switch isDirectory(path) {
        case nil: throw .missing
        case true: throw .wrongKind
        case false: break
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(lastErrorDescription()) }
        defer { close(descriptor) }
        return try readAll(descriptor, limit: limit)
    }

    /// Writes `bytes` to the file at `path`, created or replaced.
    public static func writeFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        if isDirectory(path) == true { throw .wrongKind }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .unreadable(lastErrorDescription())
        }
        defer { close(descriptor) }
        var failure: OutputError?
        bytes.withUnsafeBytes { buffer in
            do throws(OutputError) {
                try writeAll(buffer, to: descriptor)
            } catch {
                failure = error
            }
        }
        switch failure {
        case .failed(let reason)?: throw .unreadable(reason)
        case .brokenPipe?: throw .unreadable("the file went away")
        case nil: break
        }
    }

    /// Everything on standard input, up to `limit` bytes.
    public static func readStandardInput(limit: Int) throws(FileSystemError) -> [UInt8] {
        try readAll(0, limit: limit)
    }

    private static func readAll(_ descriptor: Int32, limit: Int) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(lastErrorDescription())
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes all of `bytes` to a file descriptor.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(OutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw .brokenPipe }
                throw .failed(lastErrorDescription())
            }
            offset += written
        }
    }

    /// The value of an environment variable, or nil when it is not set.
    public static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether a file descriptor is a terminal.
    public static func isTerminal(descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The current time in Unix seconds.
    public static func now() -> Int {
        Int(time(nil))
    }

    /// 64 bits from the system's random source.
    public static func randomSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// Ends the process with `code`.
    public static func exit(_ code: ExitCode) -> Never {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            _exit(code.rawValue)
        #endif
    }

    /// Whether SIGINT or SIGTERM has arrived since ``catchStopSignals()``.
    public static func stopRequested() -> Bool {
        stopSignalArrived != 0
    }

    /// Makes SIGINT and SIGTERM ask a server to stop, instead of ending the process at once.
    /// They are unblocked too: a parent may have started paylinks with them blocked.
    public static func catchStopSignals() {
        let handler: @convention(c) (Int32) -> Void = { _ in stopSignalArrived = 1 }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    private static func lastErrorDescription() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}

/// Set by the handler of SIGINT and SIGTERM, read by the server's loop between polls.
nonisolated(unsafe) private var stopSignalArrived: sig_atomic_t = 0
