import Foundation
import Testing

@testable import PaylinksCommandLine

/// The log in front of standard error: a reader that does not read stalls no write, lines
/// past the bound are dropped and counted, and the stop waits for the reader only so long.
@Suite("The server's log")
struct LogBufferTests {
    /// A standard error whose reader does not read until ``release()``: its first write
    /// waits for that (10 s at most), as a full pipe's does.
    final class StuckReader: OutputSink, @unchecked Sendable {
        private let lock = NSLock()
        private var written = ""
        private var stuck = true
        private let released = DispatchSemaphore(value: 0)
        /// Signalled when the first write has begun to wait.
        let waiting = DispatchSemaphore(value: 0)

        func write(_ text: String) throws(OutputError) {
            if lock.withLock({ stuck }) {
                waiting.signal()
                _ = released.wait(timeout: .now() + 10)
            }
            lock.withLock { written += text }
        }

        /// The reader reads from now on.
        func release() {
            lock.withLock { stuck = false }
            released.signal()
        }

        /// What was written.
        var text: String { lock.withLock { written } }
    }

    /// Line `number` of a test's log: 100 bytes.
    static func line(_ number: Int) -> String {
        let digits = String(number)
        return "line " + String(repeating: "0", count: 5 - digits.count) + digits + " "
            + String(repeating: "x", count: 88) + "\n"
    }

    @Test("a reader that does not read stalls no write; read again, it gets the lines before the gap and their count")
    func stuckReader() {
        let reader = StuckReader()
        let log = LogBuffer(reader, capacity: 4096)
        log.write("first\n")
        log.flush()
        #expect(reader.waiting.wait(timeout: .now() + 10) == .success, "the writer is in its write")
        let start = Date()
        // Half of them as text that ends its line, half as a line the buffer ends.
        for number in 0..<10_000 {
            if number % 2 == 0 {
                log.write(Self.line(number))
            } else {
                log.write(line: String(Self.line(number).dropLast()))
            }
        }
        log.flush()
        #expect(Date().timeIntervalSince(start) < 2, "a write waited for the reader")
        reader.release()
        #expect(log.finish(within: 10_000))
        // 40 lines of 100 bytes fit in 4096; the 9,960 after them were dropped, and counted.
        #expect(
            reader.text
                == "first\n" + (0..<40).map(Self.line).joined()
                + "warning: 9960 log lines dropped while standard error was not being read\n")
    }

    @Test("at the stop, a reader that never reads holds it no longer than the bound")
    func stopWithStuckReader() {
        let reader = StuckReader()
        defer { reader.release() }
        let log = LogBuffer(reader)
        log.write("first\n")
        log.flush()
        #expect(reader.waiting.wait(timeout: .now() + 10) == .success, "the writer is in its write")
        log.write("last\n")
        let start = Date()
        #expect(!log.finish(within: 200), "nothing was read, so not everything went out")
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test("a reader that reads gets every line, in order, and no line says any was dropped")
    func readerThatReads() {
        let output = CapturedOutput()
        // 100 kB in all, within the 1 MiB a log holds: however late the writer, nothing is dropped.
        let log = LogBuffer(output)
        for number in 0..<1_000 {
            log.write(Self.line(number))
            if number % 10 == 9 { log.flush() }
        }
        #expect(log.finish(within: 10_000))
        #expect(output.text == (0..<1_000).map(Self.line).joined())
    }

    /// A standard error that reads at once and signals each write.
    final class SignallingReader: OutputSink, @unchecked Sendable {
        private let lock = NSLock()
        private var writes: [String] = []
        let wrote = DispatchSemaphore(value: 0)

        func write(_ text: String) throws(OutputError) {
            lock.withLock { writes.append(text) }
            wrote.signal()
        }

        /// Each write, in order.
        var all: [String] { lock.withLock { writes } }
    }

    @Test("lines flushed while the writer lets them gather go out in one write, with no other flush or the stop")
    func gatheredLinesGoOut() {
        let reader = SignallingReader()
        let log = LogBuffer(reader)
        defer { log.finish(within: 1000) }
        log.write("first\n")
        log.flush()
        #expect(reader.wrote.wait(timeout: .now() + 10) == .success)
        // Just after a write, the writer lets lines gather: these flushes leave them due, and
        // the writer takes them once its few milliseconds are up, without being asked again.
        for number in 0..<50 {
            log.write(Self.line(number))
            log.flush()
        }
        let deadline = Date().addingTimeInterval(10)
        while reader.all.joined() != "first\n" + (0..<50).map(Self.line).joined() && Date() < deadline {
            _ = reader.wrote.wait(timeout: .now() + 1)
        }
        #expect(reader.all.joined() == "first\n" + (0..<50).map(Self.line).joined())
        #expect(reader.all.count <= 5, "\(reader.all.count) writes for 50 flushes: the lines did not gather")
    }
}
