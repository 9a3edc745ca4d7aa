/// Why output could not be written.
package enum OutputError: Error, Equatable, Sendable {
    /// The reader went away (`paylinks ... | head -1`).
    case brokenPipe
    /// Anything else: a full disk, a closed descriptor. The system's reason.
    case failed(String)
}

/// Where paylinks writes: standard output, standard error, or a buffer in a test.
///
/// Each `write` is one whole unit (a callback, a message): a sink writes all of it or
/// reports why it could not.
package protocol OutputSink: AnyObject {
    /// Writes `text` whole.
    func write(_ text: String) throws(OutputError)

    /// Writes UTF-8 `bytes` whole; sinks on a file write them without a copy.
    func write(bytes: UnsafeRawBufferPointer) throws(OutputError)
}

extension OutputSink {
    /// Writes the bytes as text.
    package func write(bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try write(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the UTF-8 bytes of an array whole.
    package func write(contentsOf bytes: [UInt8]) throws(OutputError) {
        let result = bytes.withUnsafeBytes { bytes in
            Result { () throws(OutputError) in try write(bytes: bytes) }
        }
        try result.get()
    }
}

/// A sink on a file descriptor: 1 for standard output, 2 for standard error.
package final class FileDescriptorOutput: OutputSink {
    private let descriptor: Int32

    /// A sink on `descriptor`.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `text` with as many system calls as it takes.
    package func write(_ text: String) throws(OutputError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(OutputError) in try System.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor) }
        }
        try result.get()
    }

    /// Writes `bytes` with as many system calls as it takes.
    package func write(bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try System.writeAll(bytes, to: descriptor)
    }
}

/// A sink that gathers whole writes into large blocks for another sink, so that a long
/// stream of lines costs few system calls; a write is never split across two blocks
/// unless it alone is larger than a block.
package final class BufferedOutput: OutputSink {
    private let sink: any OutputSink
    private let capacity: Int
    private var buffer: [UInt8] = []

    /// A buffer of about `capacity` bytes in front of `sink`.
    package init(_ sink: any OutputSink, capacity: Int = 1 << 16) {
        self.sink = sink
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Adds `text`, first writing out what is buffered if `text` would not fit.
    package func write(_ text: String) throws(OutputError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(OutputError) in try write(bytes: UnsafeRawBufferPointer(bytes)) }
        }
        try result.get()
    }

    /// Adds UTF-8 `bytes`, first writing out what is buffered if they would not fit.
    package func write(bytes: UnsafeRawBufferPointer) throws(OutputError) {
        if buffer.count + bytes.count > capacity {
            try flush()
        }
        if bytes.count >= capacity {
            try sink.write(bytes: bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes out everything buffered.
    package func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try sink.write(contentsOf: buffer)
    }
}

/// A sink that keeps what is written, for tests and for embedding paylinks.
package final class CapturedOutput: OutputSink {
    /// Everything written so far.
    package private(set) var text = ""

    /// An empty buffer.
    package init() {}

    /// Appends `text`.
    package func write(_ text: String) {
        self.text += text
    }
}
