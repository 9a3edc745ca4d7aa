/// What an ``HTTPServer`` serves: the application behind the transport. The server knows
/// nothing of what a request means; it reads and writes bytes on its loops and calls these
/// members, which is all an application gives it.
///
/// `prepare` runs on the loop a request came to, several loops at once: it reads the
/// request and touches nothing that changes. `respond(to:)`, `tick()` and `isStopping` are
/// called one at a time, never two at once, under the server's one serial lock, so what
/// they change needs no lock of its own.
///
/// The turns of requests the loops posted by the time one of them holds that lock, and
/// those posted while it answers, are one batch: in one hold of the lock the server calls
/// `beginBatch()`, then `respond(to:)` for each request of the batch, then `endBatch()`,
/// and only then sends any of the batch's answers. So an application may hold the answers
/// of a batch (``HTTPAnswer/awaited(_:)``) and give them all in `endBatch()`, after one
/// piece of work for all of them (a write to a disk and its sync). `tick()` and
/// `isStopping` are never called inside a batch.
public protocol HTTPResponder: Sendable {
    /// A request as `prepare` read it, handed to `respond(to:)` on its loop's thread or another's.
    associatedtype Arrival

    /// Reads `request` on the loop it came to, concurrently with the other loops.
    func prepare(_ request: HTTPRequest) -> Arrival

    /// The answer to a prepared request; called one at a time with the other members.
    func respond(to arrival: Arrival) -> HTTPAnswer

    /// Called before the `respond(to:)` calls of a batch, under the same hold of the lock.
    func beginBatch()

    /// Called after the `respond(to:)` calls of a batch, under the same hold of the lock,
    /// before any of the batch's answers is sent.
    func endBatch()

    /// Called between events, at least every 100 ms, one at a time with `respond(to:)`.
    func tick()

    /// Whether the server should stop: asked between events, one at a time with `respond(to:)`.
    var isStopping: Bool { get }

    /// Called once before the server runs it, with `wake`, which has ``tick()`` called
    /// soon (rather than within 100 ms) from any thread: for work that ends off the
    /// server's threads and that a tick takes in.
    func attach(wake: @escaping @Sendable () -> Void)
}

extension HTTPResponder {
    /// Nothing to do before a batch.
    public func beginBatch() {}

    /// Nothing to do after a batch: every answer was given by `respond(to:)`.
    public func endBatch() {}

    /// Nothing to do between events.
    public func tick() {}

    /// Nothing ends off the server's threads.
    public func attach(wake: @escaping @Sendable () -> Void) {}
}
