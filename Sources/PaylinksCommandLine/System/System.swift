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
package enum FileSystemError: Error, Equatable, Sendable {
    /// Nothing exists at the path.
    case missing
    /// The path exists but is not a directory (for a directory) or is one (for a file).
    case wrongKind
    /// The path exists but could not be read: the reason from the system.
    case unreadable(String)
    /// The file is larger than the limit given.
    case tooLarge(limit: Int)
    /// The path is neither a regular file nor a directory (a FIFO, a socket, a device),
    /// which paylinks never opens for reading: it could wait forever.
    case notAFile
    /// The path could not be created or written: the reason from the system.
    case unwritable(String)
}

/// Thin, throwing wrappers over the C library.
package enum System {
    /// Whether `path` is a directory; nil when nothing is there.
    package static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether a file can be written at `path`: nothing is there, or a regular file that can
    /// be written (not a directory, a pipe or a device), and the directory it would be in
    /// exists and can be written to.
    package static func canWriteFile(at path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { return false }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return isDirectory(directory) == true && access(directory, W_OK) == 0
            && (access(path, F_OK) != 0 || access(path, W_OK) == 0)
    }

    /// The device and inode of what `path` names, following links: the identity that
    /// tells a directory reached twice, through a link, from one reached once.
    package static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The names of the entries of a directory, sorted.
    package static func directoryEntries(_ path: String) throws(FileSystemError) -> [String] {
        try directoryListing(path).map(\.name)
    }

    /// The entries of a directory, sorted by name, each with whether it is a directory
    /// (following links; nil when what a link names is missing). The kind comes with the
    /// listing where the file system gives it, so that a directory of many files costs no
    /// call for each.
    package static func directoryListing(_ path: String) throws(FileSystemError)
        -> [(name: String, isDirectory: Bool?)]
    {
        switch isDirectory(path) {
        case nil: throw .missing
        case false: throw .wrongKind
        case true: break
        }
        guard let directory = opendir(path) else { throw .unreadable(lastErrorDescription()) }
        defer { closedir(directory) }
        let separated = path.hasSuffix("/") ? path : path + "/"
        var entries: [(name: String, isDirectory: Bool?)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            guard name != "." && name != ".." else { continue }
            switch Int(entry.pointee.d_type) {
            case Int(DT_DIR): entries.append((name, true))
            case Int(DT_REG): entries.append((name, false))
            // A link, or a file system that does not say: asked of the path.
            default: entries.append((name, isDirectory(separated + name)))
            }
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The bytes of a regular file, refusing one larger than `limit` before reading it.
    ///
    /// Only a regular file is read: anything else is refused before it is opened, and once
    /// more after (opened without waiting), in case it was swapped in between.
    package static func readFile(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .missing }
        try requireRegular(info.st_mode)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(lastErrorDescription()) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(lastErrorDescription()) }
        try requireRegular(info.st_mode)
        guard Int(info.st_size) <= limit else { throw .tooLarge(limit: limit) }
        return try readAll(descriptor, limit: limit, expected: Int(info.st_size))
    }

    private static func requireRegular(_ mode: mode_t) throws(FileSystemError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .wrongKind
        default: throw .notAFile
        }
    }

    /// Writes `bytes` to the file at `path`, created or replaced.
    package static func writeFile(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        if isDirectory(path) == true { throw .wrongKind }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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

    /// Writes `bytes` to the file at `path` whole or not at all: to a file beside it, then
    /// renamed into its place, so that a reader never sees it half written.
    package static func writeFileWhole(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        let partial = "\(path).partial-\(getpid())"
        try writeFile(partial, bytes)
        guard renameat(AT_FDCWD, partial, AT_FDCWD, path) == 0 else {
            let reason = lastErrorDescription()
            unlink(partial)
            throw .unreadable(reason)
        }
    }

    /// Everything on standard input, up to `limit` bytes.
    package static func readStandardInput(limit: Int) throws(FileSystemError) -> [UInt8] {
        try readAll(0, limit: limit)
    }

    /// Everything left to read at `descriptor`, up to `limit` bytes, read straight into
    /// place: room for `expected` bytes and one more (which finds the end at once), growing
    /// when more comes.
    private static func readAll(_ descriptor: Int32, limit: Int, expected: Int = 65_535) throws(FileSystemError)
        -> [UInt8]
    {
        var capacity = min(max(expected, 0), limit) + 1
        var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { storage.deallocate() }
        var filled = 0
        while true {
            let count = read(descriptor, storage.baseAddress! + filled, capacity - filled)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(lastErrorDescription())
            }
            if count == 0 { return Array(UnsafeRawBufferPointer(rebasing: storage[..<filled])) }
            filled += count
            guard filled <= limit else { throw .tooLarge(limit: limit) }
            if filled == capacity {
                capacity = min(capacity * 2, limit + 1)
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
                larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<filled]))
                storage.deallocate()
                storage = larger
            }
        }
    }

    /// Writes all of `bytes` to a file descriptor.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(OutputError) {
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
    package static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether a file descriptor is a terminal.
    package static func isTerminal(descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The current time in Unix seconds.
    package static func now() -> Int {
        Int(time(nil))
    }

    /// Milliseconds on the monotonic clock, for measuring how long something took.
    package static func monotonicMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
    }

    /// 64 bits from the system's random source.
    package static func randomSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// Ends the process with `code`.
    package static func exit(_ code: ExitCode) -> Never {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            _exit(code.rawValue)
        #endif
    }

    /// Whether SIGINT or SIGTERM has arrived since ``catchStopSignals()``.
    package static func stopRequested() -> Bool {
        stopSignalArrived != 0
    }

    /// Makes SIGINT and SIGTERM ask a server to stop, instead of ending the process at once.
    /// They are unblocked too: a parent may have started paylinks with them blocked.
    /// Raises the soft limit of open descriptors toward `wanted` (within the hard limit),
    /// as servers do at start: the default of 1,024 is less than a server's connections,
    /// its award pool and its files need.
    package static func raiseDescriptorLimit(to wanted: Int) {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let target = min(rlim_t(wanted), limit.rlim_max)
        guard limit.rlim_cur < target else { return }
        limit.rlim_cur = target
        _ = setrlimit(resource, &limit)
    }

    package static func catchStopSignals() {
        let handler: @convention(c) (Int32) -> Void = { _ in stopSignalArrived = 1 }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Creates the directory `path` and any missing parents.
    package static func makeDirectories(_ path: String) throws(FileSystemError) {
        if let isDirectory = isDirectory(path) {
            guard isDirectory else { throw .wrongKind }
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty && parent != path {
            do {
                try makeDirectories(parent)
            } catch .wrongKind {
                throw .unwritable("'\(parent)' is a file, not a directory")
            }
        }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .unwritable(lastErrorDescription()) }
    }

    /// Holds an exclusive lock on the directory `path` itself for as long as the process
    /// lives: its descriptor, through which its files are reached whatever becomes of the
    /// path, or nil when another process holds it. The lock is on what the files live in,
    /// not on a file of it that could be deleted or replaced.
    package static func lockDirectoryForever(_ path: String) throws(FileSystemError) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unwritable(lastErrorDescription()) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(descriptor)
            if busy { return nil }
            throw .unwritable(lastErrorDescription())
        }
        // The descriptor stays open, and the lock held, until the process ends.
        return descriptor
    }

    /// Reads the regular file `path` a chunk of at most `chunkSize` bytes at a time, handing
    /// each to `body` in order, until the end or until `body` says to stop; the bytes read.
    /// Memory holds one chunk, however large the file.
    package static func readChunks(_ path: String, chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) -> Bool)
        throws(FileSystemError) -> Int
    {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .missing }
        try requireRegular(info.st_mode)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(lastErrorDescription()) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(lastErrorDescription()) }
        try requireRegular(info.st_mode)
        var chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(lastErrorDescription())
            }
            if count == 0 { return total }
            total += count
            guard body(chunk[..<count]) else { return total }
        }
    }

    /// Makes a write past the file-size limit fail with an error, as a full disk does,
    /// instead of ending the process with SIGXFSZ.
    package static func ignoreFileSizeSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Makes a write to a pipe or socket whose reader went away fail with EPIPE, instead of
    /// ending the process with SIGPIPE: a server whose log reader left serves on.
    package static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Holds each of standard input, output and error that is closed on /dev/null, so that
    /// no file or socket opened later takes its number: a log line would otherwise be
    /// appended to a journal, or a callback written to a listening socket. Called at the
    /// process's start, before anything is opened. Each is opened the other way round
    /// (input for writing, output and error for reading), so that using it fails as using
    /// the closed stream did, with EBADF: a command whose output is closed still says so.
    package static func fillStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            // The lowest free number is this one, for those below it are open by now.
            let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            guard opened >= 0 else { return }
            if opened != descriptor {
                _ = dup2(opened, descriptor)
                closeDescriptor(opened)
            }
        }
    }

    /// Shortens the file `path` to `size` bytes, durably.
    package static func truncate(_ path: String, to size: Int) throws(FileSystemError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unwritable(lastErrorDescription()) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(size)) == 0, fsync(descriptor) == 0 else {
            throw .unwritable(lastErrorDescription())
        }
    }

    /// Whether `path` is a symbolic link itself (not followed).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Removes the file `name` of the directory open at `directory` (by default the
    /// current directory, or `name` is a path), if there is one.
    package static func removeFile(_ name: String, in directory: Int32 = AT_FDCWD) {
        _ = unlinkat(directory, name, 0)
    }

    /// Renames the file `name` of the directory open at `directory` to `target` there,
    /// replacing what is there at once, and makes the change durable.
    package static func rename(_ name: String, to target: String, in directory: Int32) throws(FileSystemError) {
        guard renameat(directory, name, directory, target) == 0 else { throw .unwritable(lastErrorDescription()) }
        _ = fsync(directory)
    }

    /// Makes the entries of the directory holding `path` durable: a file created or
    /// renamed there survives a crash.
    package static func syncDirectory(of path: String) {
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(parent.isEmpty ? "." : parent, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func lastErrorDescription() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}

/// Closes a file descriptor (from where a method named `close` would hide the C library's).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// A file that grows only at its end, each append on the disk before it returns.
package final class AppendFile {
    private var descriptor: Int32
    /// The file's size, in bytes.
    package private(set) var size: Int

    /// The file at `path` (or `name` in the directory open at `directory`), created when
    /// missing (emptied first with `truncating`).
    package init(path: String, in directory: Int32 = AT_FDCWD, truncating: Bool = false) throws(FileSystemError) {
        // A link is not followed: what is appended to stays in the directory it was asked for.
        descriptor = openat(
            directory, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (truncating ? O_TRUNC : 0),
            0o644)
        guard descriptor >= 0 else { throw .unwritable(String(cString: strerror(errno)).lowercased()) }
        var info = stat()
        size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Whether a failed append may have left bytes past ``size`` that could not be cut off
    /// yet: the next append cuts them off first.
    private var ragged = false

    /// Writes `bytes` at the end and waits until they are on the disk. When that fails,
    /// the file goes back to its size before, so that what it held stays whole and the
    /// next append starts on a fresh line, not in the middle of half a record.
    package func append(_ bytes: [UInt8]) throws(FileSystemError) {
        try append(parts: [bytes])
    }

    /// Writes `parts` at the end, one after another, and waits until they are all on the
    /// disk, as ``append(_:)`` does: written from where they are, not copied together first.
    package func append(parts: [[UInt8]]) throws(FileSystemError) {
        if ragged {
            guard ftruncate(descriptor, off_t(size)) == 0 else {
                throw .unwritable(String(cString: strerror(errno)).lowercased())
            }
            ragged = false
        }
        var failure: OutputError?
        for part in parts where failure == nil {
            part.withUnsafeBytes { buffer in
                do throws(OutputError) {
                    try System.writeAll(buffer, to: descriptor)
                } catch {
                    failure = error
                }
            }
        }
        var reason: String?
        switch failure {
        case .failed(let text)?: reason = text
        case .brokenPipe?: reason = "the file went away"
        case nil: if fdatasync(descriptor) != 0 { reason = String(cString: strerror(errno)).lowercased() }
        }
        if let reason {
            ragged = ftruncate(descriptor, off_t(size)) != 0
            throw .unwritable(reason)
        }
        for part in parts { size += part.count }
    }

    /// Closes the file.
    package func close() {
        if descriptor >= 0 { closeDescriptor(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

/// Set by the handler of SIGINT and SIGTERM, read by the server's loop between polls.
nonisolated(unsafe) private var stopSignalArrived: sig_atomic_t = 0

/// A file with no name, open for writing and reading back: where what a share of a run
/// prints waits, so that its writer never waits for its reader and memory does not grow
/// with what it printed.
package final class TemporaryFile {
    fileprivate let descriptor: Int32
    /// Writes to the file.
    package let output: FileDescriptorOutput

    /// A new one; nil when none can be made.
    package init?() {
        var template = Array("/tmp/paylinks-run-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        output = FileDescriptorOutput(descriptor: descriptor)
    }

    deinit { close(descriptor) }

    /// Calls `body` with everything written so far: the file mapped into memory rather
    /// than read, so that a long output costs no copy.
    package func withContents<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        guard size > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        // Read in whole at once: the pages would otherwise fault in one at a time.
        if let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), mapped != MAP_FAILED {
            defer { munmap(mapped, size) }
            return body(UnsafeRawBufferPointer(start: mapped, count: size))
        }
        // A file system that cannot map it: read it instead.
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, size - filled, off_t(filled))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return bytes[..<filled].withUnsafeBytes(body)
    }
}

/// A process this program started: how it ended, and what it printed, each stream in a
/// ``TemporaryFile``.
package final class ProcessOutput {
    private let pid: pid_t
    private var ended: Int32?
    private let output: TemporaryFile
    private let error: TemporaryFile

    fileprivate init(pid: pid_t, output: TemporaryFile, error: TemporaryFile) {
        self.pid = pid
        self.output = output
        self.error = error
    }

    /// A copy nobody waited for is not wanted any more: it is stopped, then reaped.
    deinit {
        if ended == nil {
            kill(pid, SIGTERM)
            System.waitFor(pid)
        }
    }

    /// Its exit status, waiting for it to end; 128 plus the signal's number when a signal
    /// ended it.
    package var status: Int32 {
        if let ended { return ended }
        let status = System.waitFor(pid)
        ended = status
        return status
    }

    /// Everything it wrote to standard error, once it has ended.
    package func standardError() -> [UInt8] {
        _ = status
        return error.withContents { Array($0) }
    }

    /// Calls `body` with everything it wrote to standard output, once it has ended.
    package func withStandardOutput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        _ = status
        return output.withContents(body)
    }
}

extension System {
    /// The processors online, at least 1.
    package static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// This program itself, to start copies of: nil where the system does not say.
    static var executablePath: String? {
        #if os(Linux)
            return isDirectory("/proc/self/exe") == false ? "/proc/self/exe" : nil
        #else
            return nil
        #endif
    }

    /// Starts copies of this program at once, one per argument list (without the program's
    /// name), each with its `environment` added to this process's, and returns them in
    /// order, each waited for when what it printed is asked for. Nil when no copy can be
    /// started here.
    package static func runCopies(_ argumentLists: [[String]], environment: [[String: String]]) -> [ProcessOutput]? {
        guard let path = executablePath else { return nil }
        var started: [ProcessOutput] = []
        for (index, arguments) in argumentLists.enumerated() {
            // Copies already started are stopped as their outputs go.
            guard let output = TemporaryFile(), let error = TemporaryFile() else { return nil }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, output.descriptor, 1)
            posix_spawn_file_actions_adddup2(&actions, error.descriptor, 2)
            // This process's environment, with the copy's own variables in place of any of the same name.
            let variables = System.environment(adding: environment.indices.contains(index) ? environment[index] : [:])
            var pid = pid_t()
            let spawned = withCStrings([path] + arguments) { argv in
                withCStrings(variables) { envp in posix_spawn(&pid, path, &actions, nil, argv, envp) }
            }
            guard spawned == 0 else { return nil }
            started.append(ProcessOutput(pid: pid, output: output, error: error))
        }
        return started
    }

    /// Waits for a child to end; its exit status, or 128 plus the signal that ended it.
    @discardableResult
    fileprivate static func waitFor(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// This process's environment as `NAME=value` strings, with `added` in place of any
    /// variable of the same name.
    static func environment(adding added: [String: String]) -> [String] {
        var variables = added.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var position = 0
        while let entry = environ[position] {
            let text = String(cString: entry)
            if added[String(text.prefix { $0 != "=" })] == nil { variables.append(text) }
            position += 1
        }
        return variables
    }

    /// Calls `body` with `strings` as a NULL-terminated C array.
    static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
