package import PaylinksJSON

/// Every delivery Appcharge's side made to the game's server, newest last: each award and
/// event, with every attempt's request (its headers, the signature among them, never the
/// key) and answer (status, headers, the start of the body), when and how long, or why
/// none came. At most `limit` deliveries and `byteBudget` bytes are held; past either the
/// oldest are forgotten, so memory stays bounded however many are made.
public struct DeliveryHistory: Sendable {
    /// What was delivered.
    public enum Kind: String, CaseIterable, Sendable {
        /// A Grant Award Callback.
        case award
        /// An order event.
        case event
    }

    /// One delivery: an item, its attempts, and what it was a replay of.
    public struct Delivery: Sendable {
        /// `dl_1`, `dl_2`, ... in the order they were made.
        public var id: String { "dl_\(number)" }
        /// Its place in the history, from 1.
        public var number: Int
        /// An award or an event.
        public var kind: Kind
        /// The session whose order it is about.
        public var purchaseId: String
        /// `award`, or the event as its version names it (`order.refunded`).
        public var name: String
        /// Where it went.
        public var url: String
        /// The request's body.
        public var body: [UInt8]
        /// Every attempt, first first.
        public var attempts: [DeliveryAttempt]
        /// The delivery it sends again, when it is a replay.
        public var replayOf: Int?
        /// For a replay, whether it was newly signed (else sent with the first's signature).
        public var resigned: Bool?
        /// When its next attempt is due, Unix milliseconds, while a virtual clock holds
        /// its retry; nil once it has ended, or when its attempts are made in one go.
        public var nextAttemptAt: Int?

        /// Whether its last attempt succeeded: granted, or accepted.
        public var succeeded: Bool { attempts.last?.succeeded ?? false }

        /// A delivery.
        public init(
            number: Int, kind: Kind, purchaseId: String, name: String, url: String, body: [UInt8],
            attempts: [DeliveryAttempt], replayOf: Int? = nil, resigned: Bool? = nil
        ) {
            self.number = number
            self.kind = kind
            self.purchaseId = purchaseId
            self.name = name
            self.url = url
            self.body = body
            self.attempts = attempts
            self.replayOf = replayOf
            self.resigned = resigned
        }

        /// What it holds, in bytes, for the history's budget.
        public var bytes: Int {
            256 + body.count + purchaseId.utf8.count + name.utf8.count + url.utf8.count
                + attempts.reduce(0) { total, attempt in
                    total + 128 + attempt.responseBody.count + (attempt.failure?.utf8.count ?? 0)
                        + (attempt.publisherPurchaseId?.utf8.count ?? 0)
                        + (attempt.publisherErrorMessage?.utf8.count ?? 0)
                        + (attempt.headers + attempt.responseHeaders).reduce(0) {
                            $0 + 16 + $1.name.utf8.count + $1.value.utf8.count
                        }
                }
        }
    }

    /// Deliveries kept at most.
    public let limit: Int
    /// Bytes of deliveries kept at most.
    public let byteBudget: Int
    /// The deliveries held, oldest first.
    public private(set) var deliveries: [Delivery] = []
    private var bytes = 0
    private var made = 0
    /// When the deliveries whose retries a virtual clock holds are due, by number.
    private var retries = TimerHeap<Int>()

    /// An empty history.
    public init(limit: Int = 10_000, byteBudget: Int = 64 << 20) {
        self.limit = limit
        self.byteBudget = byteBudget
    }

    /// Adds a delivery made now; it gets the next number.
    @discardableResult
    public mutating func add(
        kind: Kind, purchaseId: String, name: String, url: String, body: [UInt8], attempts: [DeliveryAttempt],
        replayOf: Int? = nil, resigned: Bool? = nil
    ) -> Delivery {
        made += 1
        let delivery = Delivery(
            number: made, kind: kind, purchaseId: purchaseId, name: name, url: url, body: body, attempts: attempts,
            replayOf: replayOf, resigned: resigned)
        keep(delivery)
        return delivery
    }

    /// Puts `delivery` in the place of the one of its number (a delivery whose retries a
    /// virtual clock holds gains an attempt); nothing when that one is no longer held.
    public mutating func update(_ delivery: Delivery) {
        guard let index = index(of: delivery.number) else { return }
        bytes += delivery.bytes - deliveries[index].bytes
        deliveries[index] = delivery
        noteRetry(of: delivery)
    }

    /// The deliveries whose next attempt a virtual clock holds, oldest first.
    public var retrying: [Delivery] {
        deliveries.filter { $0.nextAttemptAt != nil }
    }

    /// The delivery whose next attempt is due first, by `limit` (Unix milliseconds), the
    /// older first of two due at once, leaving out those `skipping` holds; nil when none is.
    public mutating func nextRetry(through limit: Int, skipping: Set<Int> = []) -> Delivery? {
        let held = deliveries
        guard
            let entry = retries.first(where: { entry in
                !skipping.contains(entry.key)
                    && Self.index(of: entry.key, in: held).map { held[$0].nextAttemptAt == entry.at } == true
            }), entry.at <= limit, let index = index(of: entry.key)
        else { return nil }
        return deliveries[index]
    }

    /// Where the delivery numbered `number` is held.
    private func index(of number: Int) -> Int? { Self.index(of: number, in: deliveries) }

    /// Where the delivery numbered `number` is in `deliveries`, which are in the order of
    /// their numbers, as a history keeps them.
    private static func index(of number: Int, in deliveries: [Delivery]) -> Int? {
        var low = 0
        var high = deliveries.count
        while low < high {
            let middle = (low + high) / 2
            if deliveries[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < deliveries.count && deliveries[low].number == number ? low : nil
    }

    /// Notes when `delivery`'s next attempt is due; the heap is rebuilt from the deliveries
    /// once it holds more than twice as many entries as there are deliveries.
    private mutating func noteRetry(of delivery: Delivery) {
        if let at = delivery.nextAttemptAt { retries.push((at, delivery.number, delivery.number)) }
        guard retries.count > 2 * deliveries.count + 1024 else { return }
        retries.removeAll()
        for held in deliveries {
            if let at = held.nextAttemptAt { retries.push((at, held.number, held.number)) }
        }
    }

    /// Takes back a delivery kept before a restart; the history goes on after it. A later
    /// record of the same delivery replaces the earlier.
    public mutating func restore(_ delivery: Delivery) {
        made = max(made, delivery.number)
        // Kept in order of their numbers; a journal hands them back in that order.
        if let last = deliveries.last, last.number >= delivery.number {
            guard !deliveries.contains(where: { $0.number == delivery.number }) else {
                update(delivery)
                return
            }
            keep(delivery)
            deliveries.sort { $0.number < $1.number }
        } else {
            keep(delivery)
        }
    }

    private mutating func keep(_ delivery: Delivery) {
        deliveries.append(delivery)
        noteRetry(of: delivery)
        bytes += delivery.bytes
        while deliveries.count > limit || (bytes > byteBudget && deliveries.count > 1) {
            bytes -= deliveries.removeFirst().bytes
        }
    }

    /// The delivery `id` names (`dl_3`), when it is held.
    public func delivery(id: String) -> Delivery? {
        guard id.hasPrefix("dl_"), let number = Int(id.dropFirst(3)), let index = index(of: number) else { return nil }
        return deliveries[index]
    }

    /// Which deliveries a listing shows.
    public struct Filter: Sendable {
        /// Only those about this session.
        public var purchaseId: String?
        /// Only awards, or only events.
        public var kind: Kind?
        /// Only those whose last attempt failed.
        public var failedOnly = false

        /// A filter; every delivery by default.
        public init(purchaseId: String? = nil, kind: Kind? = nil, failedOnly: Bool = false) {
            self.purchaseId = purchaseId
            self.kind = kind
            self.failedOnly = failedOnly
        }

        func admits(_ delivery: Delivery) -> Bool {
            (purchaseId == nil || delivery.purchaseId == purchaseId) && (kind == nil || delivery.kind == kind)
                && (!failedOnly || !delivery.succeeded)
        }
    }

    /// Up to `limit` deliveries `filter` admits, newest first, older than the one numbered
    /// `before` when given; `next` is the cursor of the page after, nil on the last.
    public func page(_ filter: Filter, limit: Int, before: Int? = nil) -> (deliveries: [Delivery], next: Int?) {
        var found: [Delivery] = []
        for delivery in deliveries.reversed() where before.map({ delivery.number < $0 }) ?? true {
            guard filter.admits(delivery) else { continue }
            guard found.count < limit else { return (found, found.last?.number) }
            found.append(delivery)
        }
        return (found, nil)
    }
}

extension DeliveryHistory.Delivery {
    /// The delivery as JSON: what the control API answers and the sandbox's journal keeps.
    public var json: [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("id", id)
        writer.field("kind", kind.rawValue)
        writer.field("purchaseId", purchaseId)
        writer.field("name", name)
        writer.field("url", url)
        writer.field("succeeded", succeeded)
        if let replayOf { writer.field("replayOf", "dl_\(replayOf)") }
        if let resigned { writer.field("resigned", resigned) }
        if let nextAttemptAt { writer.field("nextAttemptAt", nextAttemptAt) }
        writer.field("body", String(decoding: body, as: UTF8.self))
        writer.key("attempts")
        writer.openArray()
        for attempt in attempts {
            writer.openObject()
            writer.field("number", attempt.number)
            writer.field("sentAt", attempt.sentAt)
            writer.field("sentAfter", attempt.sentAfter)
            writer.field("milliseconds", attempt.milliseconds)
            writer.key("request")
            writer.openObject()
            writer.key("headers")
            Self.write(attempt.headers, to: &writer)
            writer.closeObject()
            if let status = attempt.status {
                writer.key("response")
                writer.openObject()
                writer.field("status", status)
                writer.key("headers")
                Self.write(attempt.responseHeaders, to: &writer)
                writer.field("body", String(decoding: attempt.responseBody, as: UTF8.self))
                writer.closeObject()
            }
            if let failure = attempt.failure { writer.field("error", failure) }
            if let id = attempt.publisherPurchaseId { writer.field("publisherPurchaseId", id) }
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return writer.bytes
    }

    private static func write(_ headers: [(name: String, value: String)], to writer: inout JSONWriter) {
        writer.openArray()
        for header in headers {
            writer.openArray()
            writer.string(header.name)
            writer.string(header.value)
            writer.closeArray()
        }
        writer.closeArray()
    }

    /// The delivery a ``json`` record holds.
    ///
    /// - Throws: ``CheckoutSessions/Session/RecordProblem`` naming what is missing.
    package init(json value: JSONValue) throws(CheckoutSessions.Session.RecordProblem) {
        typealias Problem = CheckoutSessions.Session.RecordProblem
        let fields = RecordFields(value)
        let id = try fields.string("id")
        guard id.hasPrefix("dl_"), let number = Int(id.dropFirst(3)),
            (1...RecordRange.count.upperBound).contains(number)
        else { throw Problem(description: "id '\(id)' is not dl_ and a number from 1") }
        guard let kind = DeliveryHistory.Kind(rawValue: try fields.string("kind")) else {
            throw Problem(description: "kind is not award or event")
        }
        var attempts: [DeliveryAttempt] = []
        for item in try fields.array("attempts") {
            let attemptFields = RecordFields(item)
            var attempt = DeliveryAttempt(
                number: try attemptFields.integer("number", in: RecordRange.count),
                sentAfter: try attemptFields.integer("sentAfter", in: RecordRange.duration),
                headers: try RecordFields(try attemptFields.value("request")).pairs("headers"))
            attempt.sentAt = try attemptFields.integer("sentAt", in: RecordRange.milliseconds)
            attempt.microseconds = try attemptFields.integer("milliseconds", in: RecordRange.duration) * 1000
            if let response = attemptFields["response"] {
                let responseFields = RecordFields(response)
                attempt.status = try responseFields.integer("status", in: RecordRange.status)
                attempt.responseHeaders = try responseFields.pairs("headers")
                attempt.responseBody = Array(try responseFields.string("body").utf8)
            }
            attempt.failure = try attemptFields.optionalString("error")
            attempt.publisherPurchaseId = try attemptFields.optionalString("publisherPurchaseId")
            attempts.append(attempt)
        }
        let replayOf = try fields.optionalString("replayOf").map { (text) throws(Problem) -> Int in
            guard text.hasPrefix("dl_"), let number = Int(text.dropFirst(3)),
                (1...RecordRange.count.upperBound).contains(number)
            else { throw Problem(description: "replayOf '\(text)' is not dl_ and a number from 1") }
            return number
        }
        self.init(
            number: number, kind: kind, purchaseId: try fields.string("purchaseId"), name: try fields.string("name"),
            url: try fields.string("url"), body: Array(try fields.string("body").utf8), attempts: attempts,
            replayOf: replayOf, resigned: fields["resigned"] == nil ? nil : try fields.bool("resigned"))
        nextAttemptAt =
            fields["nextAttemptAt"] == nil ? nil : try fields.integer("nextAttemptAt", in: RecordRange.milliseconds)
    }
}

extension GrantAward {
    /// The award a delivery sent: its body as it went, to send again on its schedule.
    public init?(delivered delivery: DeliveryHistory.Delivery) {
        guard delivery.kind == .award else { return nil }
        body = delivery.body
    }
}

extension OrderEvent {
    /// The event a delivery sent, its version and name read from the name it was sent
    /// under (`order.dispute.resolved (lost)`, `order_refunded`): to send again on its
    /// version's schedule; nil for an award, or a name no event has.
    public init?(delivered delivery: DeliveryHistory.Delivery) {
        guard delivery.kind == .event else { return nil }
        let found = Name.allCases.lazy.flatMap { name in Version.allCases.map { (name, $0) } }.first { name, version in
            Self.label(name, version) == delivery.name
        }
        guard let (name, version) = found else { return nil }
        self.name = name
        self.version = version
        // A V1 event has no id; a V2 event's is in its body.
        var id = ""
        if case .object(let members)? = try? JSONParser.parse(delivery.body).kind,
            case .string(let text)? = members.first(where: { $0.0 == "eventId" })?.1.kind
        {
            id = text
        }
        eventId = id
        body = delivery.body
    }
}
