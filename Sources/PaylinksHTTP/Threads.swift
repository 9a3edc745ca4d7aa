// Threads, and the pipe that wakes one waiting in `poll`.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe that wakes a thread waiting in `poll`: another thread writes a byte, the waiting
/// one polls the read end and drains it.
final class Waker: Sendable {
    /// The end to poll for reading.
    let descriptor: Int32
    private let writeEnd: Int32

    /// A new pipe, or nil when the system has no descriptor for one.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        _ = systemClose(descriptor)
        _ = systemClose(writeEnd)
    }

    /// Wakes the thread; a pipe already full has woken it already.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every byte written so far.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// The processors online: how many threads can run at once.
package func onlineProcessors() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Work done on a thread of its own while the caller goes on; ``join()`` waits for it
/// and returns its result.
///
/// The work takes what it captures with it: until ``join()`` returns, the caller must not
/// touch anything the work uses. The work and its result pass between the threads under
/// the lock of `progress`.
package final class BackgroundWork<Result>: Sendable {
    /// What the work has come to, shared by the two threads.
    private struct Progress {
        /// The work, until it runs.
        var work: (() -> Result)?
        /// What it returned, once it has.
        var result: Result?
        /// Whether the work has ended.
        var finished = false
        /// The thread it runs on, until it is joined; nil when it ran on the caller's.
        #if canImport(Darwin)
            var thread: pthread_t??
        #else
            var thread: pthread_t?
        #endif
    }

    private let progress: Locked<Progress>

    private init(_ work: @escaping () -> Result) {
        progress = Locked(Progress(work: work))
    }

    /// Whether the work has ended, so that ``join()`` returns at once.
    package var isFinished: Bool {
        progress.withLock { $0.finished }
    }

    /// Starts `work` on a new thread, or runs it at once when no thread can be made.
    package static func start(_ work: @escaping () -> Result) -> BackgroundWork {
        if let started = thread(work) { return started }
        let box = BackgroundWork(work)
        box.run()
        return box
    }

    /// Starts `work` on a new thread; nil, the work not run, when no thread can be made:
    /// for work that must not run on the caller's thread (it waits for the caller).
    package static func thread(_ work: @escaping () -> Result) -> BackgroundWork? {
        let box = BackgroundWork(work)
        let context = Unmanaged.passRetained(box).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        guard pthread_create(&thread, nil, runBackgroundWork, context) == 0 else {
            Unmanaged<BackgroundWork>.fromOpaque(context).release()
            return nil
        }
        box.progress.withLock { $0.thread = thread }
        return box
    }

    /// Runs the work, on whichever thread calls it.
    fileprivate func run() {
        let work = progress.withLock { progress in
            defer { progress.work = nil }
            return progress.work
        }
        let result = work?()
        progress.withLock { progress in
            progress.result = result
            progress.finished = true
        }
    }

    /// Waits for the work to end; its result.
    package func join() -> Result {
        let thread = progress.withLock { progress in
            defer { progress.thread = nil }
            return progress.thread
        }
        if let thread {
            #if canImport(Darwin)
                if let thread { pthread_join(thread, nil) }
            #else
                pthread_join(thread, nil)
            #endif
        }
        // Every BackgroundWork is made by start(_:) or thread(_:), which either run the work
        // at once or hand it to a thread that join has waited for: the result is there
        // whatever a peer sends, and a second join finds it still. No path reaches the trap.
        guard let result = progress.withLock({ $0.result }) else { preconditionFailure("joined work that never ran") }
        return result
    }
}

/// The body of a background thread: `context` is a retained ``BackgroundWork``.
private protocol BackgroundRunnable: AnyObject {
    func runInBackground()
}

extension BackgroundWork: BackgroundRunnable {
    fileprivate func runInBackground() { run() }
}

#if canImport(Darwin)
    private func runBackgroundWork(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        (Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any BackgroundRunnable)?.runInBackground()
        return nil
    }
#else
    private func runBackgroundWork(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        (Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any BackgroundRunnable)?.runInBackground()
        return nil
    }
#endif
