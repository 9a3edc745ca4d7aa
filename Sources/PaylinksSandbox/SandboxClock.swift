import PaylinksFixtures
import PaylinksHTTP

/// The sandbox's time, in Unix milliseconds: the wall clock, or a virtual clock that
/// moves only when the control API moves it (`serve --clock virtual`), or a clock a test
/// reads from a closure.
///
/// The virtual clock is read from any thread (the queues sign each attempt at its time)
/// and moved only by whoever serves the sandbox, one move at a time.
public final class SandboxClock: @unchecked Sendable {
    // `reading` is called only on the thread that serves the sandbox; the virtual time is
    // under its own lock.

    /// How the clock moves.
    public enum Mode: String, Sendable {
        /// With the wall's time; it cannot be moved.
        case wall
        /// Only when told.
        case virtual
    }

    /// How the clock moves.
    public let mode: Mode
    private let virtualNow: Locked<Int>
    private let reading: (() -> Int)?

    /// The wall clock.
    public static var wall: SandboxClock { SandboxClock(mode: .wall, start: 0, reading: nil) }

    /// A virtual clock that stands at `start` (Unix milliseconds) until it is moved.
    public static func virtual(at start: Int) -> SandboxClock {
        SandboxClock(mode: .virtual, start: start, reading: nil)
    }

    /// A clock that reads `reading`, as the wall clock does (it cannot be moved): for a test.
    public static func reading(_ reading: @escaping () -> Int) -> SandboxClock {
        SandboxClock(mode: .wall, start: 0, reading: reading)
    }

    private init(mode: Mode, start: Int, reading: (() -> Int)?) {
        self.mode = mode
        virtualNow = Locked(start)
        self.reading = reading
    }

    /// The time now, Unix milliseconds.
    public var now: Int {
        switch mode {
        case .virtual: virtualNow.withLock { $0 }
        case .wall: reading?() ?? wallClockMilliseconds()
        }
    }

    /// What reads the virtual clock from any thread, for the signatures of what is sent at
    /// its time; the wall clock for any other.
    public var signingClock: @Sendable () -> Int {
        guard mode == .virtual else { return wallClockMilliseconds }
        let virtualNow = virtualNow
        return { virtualNow.withLock { $0 } }
    }

    /// Moves a virtual clock forward to `time`; a time before it, or a wall clock, is left
    /// as it is.
    func move(to time: Int) {
        guard mode == .virtual else { return }
        virtualNow.withLock { now in now = max(now, time) }
    }

    /// Puts a virtual clock at `time`, before or after where it stands: where a journal or
    /// an import says it stood, which counts over where it started. A wall clock is left as
    /// it is.
    func restore(to time: Int) {
        guard mode == .virtual else { return }
        virtualNow.withLock { now in now = time }
    }

    /// The latest time the clock may reach: the end of the year 9999.
    public static let latest = ClockText.latest * 1000 + 999
}
