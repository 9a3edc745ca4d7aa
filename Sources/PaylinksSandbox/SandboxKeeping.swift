public import PaylinksAppcharge
import PaylinksHTTP

/// What the sandbox keeps across a restart, and how a change is kept: handed to
/// ``Sandbox/persist`` whole before its answer goes, and undone whole when it cannot be,
/// so that a 503 means nothing happened.
extension Sandbox {
    /// What the sandbox keeps across a restart: a session as it stood after a change, a
    /// delivery that ended, the sessions made, a virtual clock, a price point the API
    /// changed and the blocked players.
    public enum Record: Sendable {
        /// A session; a later record of the same session replaces an earlier one.
        case session(CheckoutSessions.Session)
        /// A delivery to the game's server.
        case delivery(DeliveryHistory.Delivery)
        /// How many sessions had been created when the journal was last written whole, the
        /// forgotten among them, so that no id is handed out twice.
        case made(Int)
        /// Where a virtual clock stood, Unix milliseconds; a later record replaces an earlier.
        case clock(Int)
        /// A price point created, changed or deleted through the Price Localization API; a
        /// later record of the same cents replaces an earlier.
        case pricePoint(PricePointBook.Record)
        /// The blocked players, the whole list; a later record replaces an earlier.
        case blockedPlayers([String])
    }

    /// Takes back a record kept before a restart; sessions go on by their own clock (a
    /// session past its hour expires when next asked for). Records come one at a time, so
    /// that a start holds no more than the sandbox keeps.
    public func restore(_ record: Record) {
        switch record {
        case .session(let session): sessions.restore(session, now: now)
        case .delivery(let delivery): history.restore(delivery)
        case .made(let count): sessions.restore(made: count)
        case .pricePoint(let record): pricePoints.restore(record)
        case .clock(let time):
            restoredClock = time
            clock.restore(to: time)
            clockKept = clock.mode == .virtual ? now : nil
            pricePoints.started(at: now)
        case .blockedPlayers(let players):
            // `--block-player` blocks at every start, whatever the list kept says.
            blockedPlayers = BlockedPlayers.unique(players + settings.blockedPlayers)
        }
    }

    /// How long what waits is not written again after a write failed, in milliseconds.
    public static let writePause = 1000

    /// Hands what changed since the last keep to ``persist``, as one change: the price
    /// points, the blocked players, the sessions, the deliveries that ended and a virtual
    /// clock that moved. Nil when it is kept (or nothing keeps it), else why not. When it
    /// is not kept and `undoing`, all of the change is undone and its effects dropped: the
    /// answer says nothing happened. Otherwise (what the game's server was sent cannot be
    /// unsent) the change stands in memory, its effects follow, and it is kept with the
    /// next change that reaches the disk. In a turn of requests (``beginBatch()``) a
    /// request's change, `undoing`, waits for the turn's end instead: nil, and its effects
    /// wait too.
    func keep(undoing: Bool) -> String? {
        let (failure, due) = keepChange(undoing: undoing)
        bringAbout(due[...])
        return failure
    }

    /// Keeps as ``keep(undoing:)`` says, and returns the effects that are to follow, in
    /// order, instead of bringing them about.
    func keepChange(undoing: Bool) -> (failure: String?, due: [Effect]) {
        // Asked before the change is gathered, which a turn's every request would pay for.
        let changedUndoable = sessions.isChanging || !pricePoints.changes.isEmpty || blockedBefore != nil
        if undoing && defersKeeping(undoable: changedUndoable) { return (nil, []) }
        let now = self.now
        // A virtual clock that moved is kept with the change, or on its own.
        let movedClock = clock.mode == .virtual && clockKept != now ? now : nil
        // A request that changed nothing (a read, a replay) is answered whatever the disk
        // says of what waits from before it: it has nothing to undo.
        let undoable = undoing && changedUndoable
        var failure: String?
        let pausing = lastFailure.map { now >= $0 && now - $0 < Self.writePause } ?? false
        var tried = false
        // Gathered only when something keeps it: without a disk nothing reads it.
        if let persist, undoable || !pausing,
            case let change = SandboxJournalChange(
                pricePoints: pricePoints.changes, blocked: blockedBefore == nil ? nil : blockedPlayers,
                sessions: sessions.changedSessions, deliveries: unsavedDeliveries, clock: movedClock),
            !change.isEmpty
        {
            tried = true
            failure = persist(change)
            lastFailure = failure == nil ? nil : now
            if failure == nil, let movedClock { clockKept = movedClock }
        } else if pausing, let readyKept {
            // Only what this step changed: what waited before it was readied already, and
            // gathering all of it again for each step would cost as much as it waited.
            let newest = unsavedDeliveries.reversed().prefix { $0.number > deliveriesReadied }
            readyKept(SandboxJournalChange(sessions: sessions.stepSessions, deliveries: newest.reversed()))
            deliveriesReadied = unsavedDeliveries.last?.number ?? deliveriesReadied
        }
        if pausing && !tried {
            failure = "the disk refused the last write"
        }
        if failure == nil {
            sessions.saved()
            pricePoints.saved()
            blockedBefore = nil
            unsavedDeliveries = []
            deliveriesReadied = 0
        } else if undoable {
            sessions.rollback()
            pricePoints.rollback()
            if let blockedBefore { blockedPlayers = blockedBefore }
            blockedBefore = nil
            effects = []
            return (failure, [])
        } else {
            // Not undone, the change waits for the next one that reaches the disk.
            sessions.commit()
            if undoing { failure = nil }
        }
        let due = effects
        effects = []
        return (failure, due)
    }

    /// Brings `due` about, in order: what a change that was kept has for effect.
    func bringAbout(_ due: ArraySlice<Effect>) {
        for effect in due {
            switch effect {
            case .log(let line): onLog(line)
            case .award(let purchaseId, let award): onPaid?(purchaseId, award)
            case .callback(let callback): onCallback(callback)
            case .orderEvent(let purchaseId, let event): onOrderEvent?(purchaseId, event)
            case .replay(let delivery, let resign): onReplay?(delivery, resign)
            case .retry(let delivery): onRetry?(delivery)
            }
        }
    }

    /// Writes what waits for room on the disk (what the sandbox learned on its own while a
    /// write failed), however recently one failed: a stop calls it last. Nil when nothing
    /// waits any more, else why not.
    public func keepWaiting() -> String? {
        lastFailure = nil
        return keep(undoing: false)
    }

    /// 503: a change could not be kept on the disk (`failure` says why), so it was undone.
    static func notKept(_ failure: String) -> HTTPServerResponse {
        problem(
            503,
            "the sandbox could not keep the change on disk (\(failure)), so nothing changed; free the disk, then "
                + "try again")
    }
}
