import PaylinksHTTP

/// A server's log in front of standard error: whole lines gathered in a buffer of bounded
/// size and written by a thread of their own, so that a reader that does not read (a pipe
/// nobody drains, a `tee` into a reader that is stuck) stalls that thread, never whoever
/// logs. While the buffer is full, lines are dropped and counted; once the reader takes
/// what waited, a line says how many. ``finish(within:)`` writes what is left, waiting no
/// longer than it is given, and must be called: the thread holds the buffer until then.
package final class LogBuffer: OutputSink, @unchecked Sendable {
    /// How long a stop waits for standard error to take the last lines, in milliseconds:
    /// long enough for any reader that reads, short enough that a stuck one does not hold
    /// the exit.
    package static let closingMilliseconds = 1000

    private let sink: any OutputSink
    private let capacity: Int
    /// Past this many bytes waiting, the writer is woken without waiting for ``flush()``.
    private let batch: Int
    private let condition = Condition()
    /// The thread that writes to `sink`; nil when the system could make none (then
    /// ``flush()`` writes, as an unbuffered log would) or once it has ended.
    private var writer: BackgroundWork<Void>?

    // Under `condition`, shared with the writer.
    /// Lines not handed to the sink yet.
    private var pending: [UInt8] = []
    /// Lines dropped since the log last said how many.
    private var dropped = 0
    /// Whether the writer is asked to write what waits.
    private var due = false
    /// Whether the writer is in the sink's write.
    private var writing = false
    /// Whether ``finish(within:)`` was called: the writer writes what is left and ends.
    private var closing = false

    /// A log of at most `capacity` bytes waiting in front of `sink`.
    package init(_ sink: any OutputSink, capacity: Int = 1 << 20) {
        self.sink = sink
        self.capacity = max(1, capacity)
        batch = max(1, min(self.capacity / 2, 1 << 16))
        pending.reserveCapacity(batch)
        writer = BackgroundWork.thread { [self] in writeUntilFinished() }
    }

    /// Adds `text`, whole lines, or drops and counts them when the buffer has no room.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds UTF-8 `bytes`, whole lines, or drops and counts them when the buffer has no
    /// room: it never waits for the reader.
    package func write(bytes: UnsafeRawBufferPointer) {
        condition.withLock {
            // A line longer than the whole buffer still goes when nothing else waits, so that
            // a reader that reads loses nothing.
            guard pending.isEmpty || pending.count + bytes.count <= capacity else {
                dropped += max(1, bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) })
                return
            }
            pending.append(contentsOf: bytes)
            if pending.count >= batch && !due {
                due = true
                condition.broadcast()
            }
        }
    }

    /// Hands what waits to the writer and returns at once: a server calls it once a turn of
    /// its loop, so that the lines of a turn go out in one system call.
    package func flush() {
        guard writer != nil else {
            writeWaiting()
            return
        }
        condition.withLock {
            if !pending.isEmpty || dropped > 0 {
                due = true
                condition.broadcast()
            }
        }
    }

    /// Writes out what waits and ends the writer, waiting at most `milliseconds` for the
    /// reader to take it; whether everything went out. When it did not, the writer is left
    /// in its write, for the process is about to exit, and what it held is lost.
    @discardableResult
    package func finish(within milliseconds: Int) -> Bool {
        guard let writer else {
            writeWaiting()
            return true
        }
        let done = condition.withLock { () -> Bool in
            closing = true
            condition.broadcast()
            return condition.wait(milliseconds: milliseconds) { !writing && pending.isEmpty && dropped == 0 }
        }
        if done {
            writer.join()
            self.writer = nil
        }
        return done
    }

    /// The writer's thread: waits for lines, writes them, says how many were dropped before
    /// the lines that follow, until ``finish(within:)`` and nothing is left.
    private func writeUntilFinished() {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(batch)
        while true {
            let lost = condition.withLock { () -> Int? in
                while true {
                    _ = condition.wait(milliseconds: nil) { due || closing }
                    if !pending.isEmpty || dropped > 0 { break }
                    if closing { return nil }
                    due = false
                }
                // The buffers change places: the lines go out from one while the next fill the other.
                swap(&chunk, &pending)
                let lost = dropped
                dropped = 0
                due = false
                writing = true
                return lost
            }
            guard let lost else { return }
            emit(chunk, dropping: lost)
            chunk.removeAll(keepingCapacity: true)
            condition.withLock {
                writing = false
                condition.broadcast()
            }
        }
    }

    /// Writes what waits on the caller's thread: the log of a process that has no thread for it.
    private func writeWaiting() {
        let (chunk, lost) = condition.withLock { () -> ([UInt8], Int) in
            let waiting = (pending, dropped)
            pending.removeAll(keepingCapacity: true)
            dropped = 0
            return waiting
        }
        emit(chunk, dropping: lost)
    }

    /// Writes `chunk`, then a line saying that `lost` lines were dropped after it, if any
    /// were. A sink that fails (standard error closed) loses the log, which has nowhere else
    /// to go.
    private func emit(_ chunk: [UInt8], dropping lost: Int) {
        if !chunk.isEmpty { try? sink.write(contentsOf: chunk) }
        if lost > 0 {
            try? sink.write(
                "warning: \(lost) log line\(lost == 1 ? "" : "s") dropped while standard error was not being read\n")
        }
    }
}
