// How results reach the delegate: at once, later on the main actor, or held.

extension PaymentLinksSimulator {
    /// How the simulator hands results to the delegate.
    public struct Delivery: Sendable {
        /// Takes a delivery to run later. It runs on the main actor, where the simulator
        /// calls it, so holding a delivery needs no run-time check of the actor: such a
        /// check would link the concurrency runtime into every program that holds one.
        @usableFromInline typealias Schedule =
            @MainActor @Sendable (_ delivery: @escaping @MainActor @Sendable () -> Void) -> Void

        /// Runs a delivery later; nil delivers at once.
        @usableFromInline let schedule: Schedule?

        @usableFromInline init(schedule: Schedule?) {
            self.schedule = schedule
        }

        /// Each callback before the call that caused it returns, on the caller's turn of
        /// the main actor. Simple to test; hides bugs that depend on timing.
        public static let synchronous = Delivery(schedule: nil)

        // Emitted into the code that uses it, so that a program that never delivers
        // asynchronously (the `paylinks` command) links no concurrency runtime.

        /// Each callback later, on the main actor, after the call has returned, as the
        /// real SDK delivers; ``PaymentLinksSimulator/settle()`` waits for every callback due.
        @_alwaysEmitIntoClient
        public static var asynchronous: Delivery {
            Delivery { delivery in Task { @MainActor in delivery() } }
        }

        /// Each callback when `store` is flushed (``HeldDeliveries/flush()``), on the
        /// caller's turn of the main actor: a test step that does not wait for its result
        /// leaves it there while the next step runs.
        public static func held(in store: HeldDeliveries) -> Delivery {
            Delivery { delivery in store.pending.append(HeldDeliveries.Held(run: delivery)) }
        }
    }

    // MARK: Delivery

    func deliver(_ callback: Callback) {
        guard let delegate else { return }
        guard let schedule = delivery.schedule else {
            callback.send(to: delegate)
            return
        }
        queue.append((callback, delegate))
        // Each scheduled delivery hands over the oldest callback due, so the order holds
        // whatever order the deliveries run in.
        schedule { [weak self] in self?.deliverOldest() }
    }

    func deliverOldest() {
        guard !queue.isEmpty else { return }
        let (callback, delegate) = queue.removeFirst()
        callback.send(to: delegate)
    }
}

/// Deliveries held until the holder flushes them, oldest first: a test that wants to
/// act between a call and its callbacks creates the simulator with
/// `delivery: .held(in: store)`, makes its calls, and flushes `store` when it is ready.
@MainActor
public final class HeldDeliveries {
    /// One delivery held. Wrapping the closure keeps the array's element a plain struct:
    /// an array of main-actor closures would ask the run time for their type, and so link
    /// the concurrency runtime into every program that holds deliveries.
    fileprivate struct Held {
        let run: @MainActor @Sendable () -> Void
    }

    fileprivate var pending: [Held] = []

    /// An empty store.
    public init() {}

    /// The number of deliveries held.
    public var count: Int { pending.count }

    /// Delivers everything held, in order, including what those deliveries cause.
    public func flush() {
        while !pending.isEmpty { pending.removeFirst().run() }
    }
}
