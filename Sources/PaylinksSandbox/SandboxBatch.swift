import PaylinksHTTP

/// Group commit: the changes of one turn of the server's loop are handed to ``Sandbox/persist``
/// once, at the turn's end, and none of their answers goes out before that; when they
/// cannot be kept, the whole turn's change is undone and each of those answers is 503, so
/// that a 503 still means nothing happened. One write and one sync for a turn's changes,
/// not one for each.
extension Sandbox {
    /// A turn of requests under way: whether something in it changed what is kept, and the
    /// answers held since the first change, in the order they were made.
    struct Batch {
        /// Whether a request of the turn changed sessions, price points or the blocked
        /// players: every answer from then on waits for the turn's end.
        var holding = false
        /// The answers held, each with its request and its promise.
        var held: [Held] = []
    }

    /// An answer held until its turn's change is kept: the request's line for the log, the
    /// answer as the route made it, the promise the server waits on, and where the
    /// request's effects end among the turn's.
    struct Held {
        let method: HTTPMethod
        let path: String
        let answer: HTTPAnswer
        let promise: HTTPPromise
        let effectsEnd: Int
    }

    /// Begins a turn of requests: until ``endBatch()``, a change is not kept at once when
    /// there is a ``persist``, but with the turn's others. Without one, nothing changes.
    public func beginBatch() {
        batch = Batch()
    }

    /// Ends the turn of requests: keeps its change, in one call to ``persist``, and gives
    /// each answer it held, its effects (awards, events, log lines) following in their
    /// order; when the change is not kept, undoes all of it, drops its effects and gives
    /// each held answer the 503 that says nothing changed.
    public func endBatch() {
        guard let ended = batch else { return }
        batch = nil
        guard ended.holding else { return }
        let (failure, due) = keepChange(undoing: true)
        if let failure {
            for held in ended.held {
                onLog("warning: a change could not be kept, so it was not made: \(failure)")
                var response = Self.notKept(failure)
                guardian.finish(&response)
                onLog("\(held.method) \(held.path) \(response.status)")
                held.promise.give(response)
            }
            return
        }
        var start = 0
        for held in ended.held {
            let end = min(max(held.effectsEnd, start), due.count)
            bringAbout(due[start..<end])
            start = end
            give(held)
        }
        bringAbout(due[start...])
    }

    /// Keeps what the turn under way changed now, and gives the answers it held: before a
    /// request that acts on everything kept (a reset), which must find the turn's changes
    /// and their effects behind it. The turn goes on.
    func keepBatch() {
        guard batch?.holding == true else { return }
        endBatch()
        beginBatch()
    }

    /// Whether a change `keep(undoing: true)` is handed waits for the turn's end: there is
    /// a turn under way, a ``persist``, and the request changed what can be undone, or one
    /// before it in the turn did. It then holds the turn's answers from now on.
    func defersKeeping(undoable: Bool) -> Bool {
        guard batch != nil, persist != nil, undoable || batch?.holding == true else { return false }
        batch?.holding = true
        return true
    }

    /// `answer` to the request of `method` and `path`, held when its turn's change waits
    /// to be kept: an answer the server waits for, given at the turn's end. Else `answer`.
    func holding(_ answer: HTTPAnswer, method: HTTPMethod, path: String) -> HTTPAnswer {
        guard batch?.holding == true else { return answer }
        let promise = HTTPPromise()
        batch?.held.append(
            Held(method: method, path: path, answer: answer, promise: promise, effectsEnd: effects.count))
        return .awaited(promise)
    }

    /// Gives `held` its answer, its turn's change kept, finished and logged as an answer
    /// not held is (``finished(_:method:path:)``).
    private func give(_ held: Held) {
        switch finished(held.answer, method: held.method, path: held.path) {
        case .ready(let response):
            held.promise.give(response)
        case .later(var response, let body):
            response.body = body()
            held.promise.give(response)
        case .awaited(let awaited):
            // The server waits on the held promise, given once the awaited answer is.
            let promise = held.promise
            awaited.whenGiven { [awaited] in
                if let response = awaited.response { promise.give(response) }
            }
        }
    }
}
