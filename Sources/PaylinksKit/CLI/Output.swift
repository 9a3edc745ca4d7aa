/// Why output could not be written.
public enum OutputError: Error, Equatable, Sendable {
    /// The reader went away (`paylinks ... | head -1`).
    case brokenPipe
    /// Anything else: a full disk, a closed descriptor. The system's reason.
    case failed(String)
}

/// Where paylinks writes: standard output, standard error, or a buffer in a test.
///
/// Each `write` is one whole unit (a callback, a message): a sink writes all of it or
/// reports why it could not.
public protocol OutputSink: AnyObject {
    /// Writes `text` whole.
    func write(_ text: String) throws(OutputError)
}

/// A sink on a file descriptor: 1 for standard output, 2 for standard error.
public final class FileDescriptorOutput: OutputSink {
    private let descriptor: Int32

    /// A sink on `descriptor`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `text` with as many system calls as it takes.
    public func write(_ text: String) throws(OutputError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(OutputError) in try System.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) }
        }
        try result.get()
    }
}

/// A sink that keeps what is written, for tests and for embedding paylinks.
public final class CapturedOutput: OutputSink {
    /// Everything written so far.
    public private(set) var text = ""

    /// An empty buffer.
    public init() {}

    /// Appends `text`.
    public func write(_ text: String) {
        self.text += text
    }
}
