import PaylinksHTTP

/// A server's log in front of standard error: whole lines gathered in a buffer of bounded
/// size and written by a thread of their own, so that a reader that does not read (a pipe
/// nobody drains, a `tee` into a reader that is stuck) stalls that thread, never whoever
/// logs. While the buffer is full, lines are dropped and counted; once the reader takes
/// what waited, a line says how many. ``finish(within:)`` writes what is left, waiting no
/// longer than it is given, and must be called: the thread holds the buffer until then.
package final class LogBuffer: OutputSink, Sendable {
    /// How long a stop waits for standard error to take the last lines, in milliseconds:
    /// long enough for any reader that reads, short enough that a stuck one does not hold
    /// the exit.
    package static let closingMilliseconds = 1000

    /// Where the lines go, written by one thread at a time under its lock: the writer, or
    /// whoever flushes when there is no writer.
    private let sink: Locked<any OutputSink>
    private let capacity: Int
    /// Past this many bytes waiting, the writer is woken without waiting for ``flush()``.
    private let batch: Int

    /// What the loggers share with the writer, under `state`'s lock.
    private struct State {
        /// The thread that writes to `sink`; nil when the system could make none (then
        /// ``flush()`` writes, as an unbuffered log would) or once it has ended.
        var writer: BackgroundWork<Void>?
        /// Lines not handed to the sink yet.
        var pending: [UInt8] = []
        /// Lines dropped since the log last said how many.
        var dropped = 0
        /// Whether the writer is asked to write what waits.
        var due = false
        /// Whether the writer is in the sink's write.
        var writing = false
        /// Whether ``finish(within:)`` was called: the writer writes what is left and ends.
        var closing = false
        /// Whether the writer lets lines gather after a write (``gatheringMilliseconds``):
        /// a flush then leaves them due without waking it.
        var gathering = false
    }

    private let state = Locked(State())

    /// How long the lines after a write gather before the next, in milliseconds, unless a
    /// batch of them waits sooner. A busy server flushes every turn of its loop, thousands
    /// a second, and waking the writer for each turn cost more than its write.
    static let gatheringMilliseconds = 5

    /// A log of at most `capacity` bytes waiting in front of `sink`.
    package init(_ sink: any OutputSink, capacity: Int = 1 << 20) {
        self.sink = Locked(sink)
        self.capacity = max(1, capacity)
        batch = max(1, min(self.capacity / 2, 1 << 16))
        state.withLock { state in
            state.pending.reserveCapacity(batch)
            state.writer = BackgroundWork.thread { [self] in writeUntilFinished() }
        }
    }

    /// Adds `text`, whole lines, or drops and counts them when the buffer has no room.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds UTF-8 `bytes`, whole lines (with `lineFeed`, a line and the line feed that ends
    /// it), or drops and counts them when the buffer has no room: it never waits for the
    /// reader.
    package func write(bytes: UnsafeRawBufferPointer, lineFeed: Bool = false) {
        let count = bytes.count + (lineFeed ? 1 : 0)
        state.withLock { state in
            // A line longer than the whole buffer still goes when nothing else waits, so that
            // a reader that reads loses nothing.
            guard state.pending.isEmpty || state.pending.count + count <= capacity else {
                state.dropped += max(1, bytes.reduce(lineFeed ? 1 : 0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) })
                return
            }
            state.pending.append(contentsOf: bytes)
            if lineFeed { state.pending.append(UInt8(ascii: "\n")) }
            if state.pending.count >= batch && (!state.due || state.gathering) {
                state.due = true
                self.state.broadcast()
            }
        }
    }

    /// Hands what waits to the writer and returns at once: a server calls it once a turn of
    /// its loop, so that the lines of a turn, or of the few milliseconds the writer lets
    /// them gather, go out in one system call.
    package func flush() {
        let handed = state.withLock { state in
            guard state.writer != nil else { return false }
            if !state.pending.isEmpty || state.dropped > 0 {
                state.due = true
                if !state.gathering { self.state.broadcast() }
            }
            return true
        }
        if !handed { writeWaiting() }
    }

    /// Writes out what waits and ends the writer, waiting at most `milliseconds` for the
    /// reader to take it; whether everything went out. When it did not, the writer is left
    /// in its write, for the process is about to exit, and what it held is lost.
    @discardableResult
    package func finish(within milliseconds: Int) -> Bool {
        let writer = state.withLock { state in
            if state.writer != nil {
                state.closing = true
                self.state.broadcast()
            }
            return state.writer
        }
        guard let writer else {
            writeWaiting()
            return true
        }
        let done = state.withLock(
            waitingAtMost: milliseconds, until: { !$0.writing && $0.pending.isEmpty && $0.dropped == 0 }
        ) { _, done in done }
        if done {
            writer.join()
            state.withLock { $0.writer = nil }
        }
        return done
    }

    /// What the writer does next: write what it took, or end.
    private enum Turn {
        case write(dropped: Int)
        case wait
        case end
    }

    /// The writer's thread: waits for lines, writes them, says how many were dropped before
    /// the lines that follow, until ``finish(within:)`` and nothing is left.
    private func writeUntilFinished() {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(batch)
        while true {
            let turn = state.withLock(waitingAtMost: nil, until: { $0.due || $0.closing }) { state, _ -> Turn in
                guard !state.pending.isEmpty || state.dropped > 0 else {
                    if state.closing { return .end }
                    state.due = false
                    return .wait
                }
                // The buffers change places: the lines go out from one while the next fill the other.
                swap(&chunk, &state.pending)
                let lost = state.dropped
                state.dropped = 0
                state.due = false
                state.writing = true
                return .write(dropped: lost)
            }
            switch turn {
            case .end: return
            case .wait: continue
            case .write(let lost):
                emit(chunk, dropping: lost)
                chunk.removeAll(keepingCapacity: true)
                state.withLock { state in
                    state.writing = false
                    state.gathering = true
                    self.state.broadcast()
                }
                state.withLock(
                    waitingAtMost: Self.gatheringMilliseconds,
                    until: { $0.closing || $0.pending.count >= batch }
                ) { state, _ in state.gathering = false }
            }
        }
    }

    /// Writes what waits on the caller's thread: the log of a process that has no thread for it.
    private func writeWaiting() {
        let (chunk, lost) = state.withLock { state -> ([UInt8], Int) in
            let waiting = (state.pending, state.dropped)
            state.pending.removeAll(keepingCapacity: true)
            state.dropped = 0
            return waiting
        }
        emit(chunk, dropping: lost)
    }

    /// Writes `chunk`, then a line saying that `lost` lines were dropped after it, if any
    /// were. A sink that fails (standard error closed, or its reader gone) loses the log,
    /// which has nowhere else to go, and the writer goes on.
    private func emit(_ chunk: [UInt8], dropping lost: Int) {
        sink.withLock { sink in
            if !chunk.isEmpty { try? sink.write(contentsOf: chunk) }
            if lost > 0 {
                try? sink.write(
                    "warning: \(lost) log line\(lost == 1 ? "" : "s") dropped while standard error was not being read\n"
                )
            }
        }
    }
}
