import PaylinksJSON
public import PaylinksKit

/// One attempt at delivering an award or an event, and what its answer meant.
public struct DeliveryAttempt: Sendable {
    /// 1 for the first attempt.
    public var number: Int
    /// When it was sent: milliseconds after the first attempt, by the retry schedule.
    public var sentAfter: Int
    /// The response's status, or nil when none came.
    public var status: Int?
    /// How long the exchange really took, in milliseconds.
    public var milliseconds: Int { microseconds / 1000 }
    /// How long the exchange really took, in microseconds.
    public var microseconds: Int
    /// The id the game's server granted an award's order under, when it did.
    public var publisherPurchaseId: String?
    /// The server's reason for refusing an award, when it gave one.
    public var publisherErrorMessage: String?
    /// Why the attempt did not succeed; nil when it did.
    public var failure: String?
    /// The request's headers, the signature included (never the key); empty when the
    /// sender keeps none (a load's).
    public var headers: [(name: String, value: String)]
    /// When it was sent, Unix milliseconds on the wall clock; 0 when not known.
    public var sentAt = 0
    /// The answer's headers, in the order received; empty when none came, or when the
    /// sender keeps none (a load's).
    public var responseHeaders: [(name: String, value: String)] = []
    /// The start of the answer's body, at most ``responseBodyLimit`` bytes; empty as the
    /// headers are.
    public var responseBody: [UInt8] = []
    /// How much of an answer's body an attempt keeps.
    public static let responseBodyLimit = 4096

    /// An attempt about to be sent, with its request's headers.
    public init(number: Int, sentAfter: Int, headers: [(name: String, value: String)]) {
        self.number = number
        self.sentAfter = sentAfter
        self.headers = headers
        microseconds = 0
    }

    /// Whether the attempt succeeded: the award granted, or the event accepted.
    public var succeeded: Bool { failure == nil }

    /// Takes an award's answer: a grant only with 200 and a non-empty string
    /// `publisherPurchaseId`.
    public mutating func judge(status: Int, body: [UInt8]) {
        self.status = status
        let answer = AwardAnswer(status: status, body: body)
        publisherErrorMessage = answer.string("publisherErrorMessage").map(Self.capped)
        if status != 200 {
            failure = "the server answered \(status)"
        } else if let id = answer.grantId {
            publisherPurchaseId = Self.capped(id)
        } else {
            failure = "200 without a non-empty string publisherPurchaseId"
        }
    }

    /// `text` as an attempt keeps what the answer said: at most ``responseBodyLimit``
    /// bytes, cut at a character's edge and marked with `…` when longer, so that an
    /// answer cannot make its attempt, the history that keeps it or the client's error
    /// data larger than the body kept.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > responseBodyLimit else { return text }
        var kept = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += scalar.utf8.count
            guard bytes <= responseBodyLimit - 3 else { break }
            kept.unicodeScalars.append(scalar)
        }
        return kept + "…"
    }

    /// Takes an event's answer: any 2xx accepts it.
    public mutating func judge(status: Int) {
        self.status = status
        failure = (200..<300).contains(status) ? nil : "the server answered \(status)"
    }
}

/// What Appcharge sends the game's server and retries: an award or an event. Its body
/// goes out as it is, newly signed on each attempt; its schedule and what an answer
/// means are its own.
public protocol Deliverable: Sendable {
    /// The body's bytes.
    var body: [UInt8] { get }
    /// When each attempt is sent, after the one before, in milliseconds: the first at 0.
    var retryDelays: [Int] { get }
    /// Judges `attempt` by the answer's status and body.
    func judge(_ attempt: inout DeliveryAttempt, status: Int, body: [UInt8])
    /// Whether no attempt follows `attempt`: it was accepted, or its answer is not retried.
    func isLast(_ attempt: DeliveryAttempt) -> Bool
}

extension Deliverable {
    /// Whether `attempts` are all the item gets: the last was its last (accepted, or not
    /// to be retried), or its schedule has no more. Fewer means a stop cut them short.
    public func isDone(_ attempts: [DeliveryAttempt]) -> Bool {
        guard let last = attempts.last else { return false }
        return isLast(last) || attempts.count >= retryDelays.count
    }

    /// Sends attempts of the item on its schedule: `wait` pauses before each retry, `send`
    /// makes one attempt given its number and when it is sent, `onAttempt` sees each as it
    /// ends, `fault` is on the way (an event's), `fate` says what becomes of each attempt (an
    /// award's fault); a retry starts only while `proceeding()` says so.
    public func attempts(
        wait: (_ milliseconds: Int) -> Void, send: (_ number: Int, _ sentAfter: Int) -> DeliveryAttempt,
        onAttempt: (DeliveryAttempt) -> Void = { _ in }, fault: DeliveryFault? = nil,
        fate: (_ index: Int) -> AttemptFate = { _ in .sent }, proceeding: () -> Bool = { true }
    ) -> [DeliveryAttempt] {
        RetryLoop.attempts(
            delays: retryDelays, wait: wait, send: send, onAttempt: onAttempt, finished: isLast, fault: fault,
            fate: fate, proceeding: proceeding)
    }
}

extension GrantAward: Deliverable {
    /// ``AwardSchedule``'s.
    public var retryDelays: [Int] { AwardSchedule.retryDelays }

    /// Granted on a 200 with a `publisherPurchaseId`.
    public func judge(_ attempt: inout DeliveryAttempt, status: Int, body: [UInt8]) {
        attempt.judge(status: status, body: body)
    }

    /// An award is retried until it is granted.
    public func isLast(_ attempt: DeliveryAttempt) -> Bool { attempt.succeeded }
}

extension OrderEvent: Deliverable {
    /// Its version's.
    public var retryDelays: [Int] { version.retryDelays }

    /// Accepted on any 2xx.
    public func judge(_ attempt: inout DeliveryAttempt, status: Int, body: [UInt8]) {
        attempt.judge(status: status)
    }

    /// An event is retried as its version retries.
    public func isLast(_ attempt: DeliveryAttempt) -> Bool {
        attempt.succeeded || !version.retries(status: attempt.status)
    }
}

/// What becomes of one attempt on its way: sent and answered, lost before it reached the
/// server, or sent and answered but its answer lost on the way back. Both losses are a
/// timeout to Appcharge.
public enum AttemptFate: Sendable, Equatable {
    /// Sent, and its answer read.
    case sent
    /// Lost on the way: the server never hears of it. `fault` names the fault, for the reason.
    case lost(fault: String)
    /// Sent and answered, but the answer never comes back. `fault` names the fault.
    case answerLost(fault: String)
}

extension AwardFault {
    /// What becomes of the attempt at `index` (0 for the first).
    public func fate(ofAttempt index: Int) -> AttemptFate {
        switch self {
        case .dropFirst: index == 0 ? .lost(fault: rawValue) : .sent
        case .drop, .late: .lost(fault: rawValue)
        case .answerLostFirst: index == 0 ? .answerLost(fault: rawValue) : .sent
        case .answerLost: .answerLost(fault: rawValue)
        }
    }
}

extension DeliveryFault {
    /// What becomes of the attempt at `index`: ``dropFirst`` loses the first.
    func fate(ofAttempt index: Int) -> AttemptFate {
        self == .dropFirst && index == 0 ? .lost(fault: rawValue) : .sent
    }
}

/// The retry loop every delivery shares: an attempt, then one after each delay while the
/// last is not `finished` and `proceeding()` says so. Each attempt meets the fate `fate`
/// gives it (lost, or its answer lost: a timeout either way); a `fault` of
/// ``DeliveryFault/dropFirst`` loses the first attempt, one of ``DeliveryFault/delay``
/// sends it late.
enum RetryLoop {
    static func attempts(
        delays: [Int], wait: (_ milliseconds: Int) -> Void, send: (_ number: Int, _ sentAfter: Int) -> DeliveryAttempt,
        onAttempt: (DeliveryAttempt) -> Void, finished: (DeliveryAttempt) -> Bool, fault: DeliveryFault? = nil,
        fate: (_ index: Int) -> AttemptFate = { _ in .sent }, proceeding: () -> Bool
    ) -> [DeliveryAttempt] {
        var delays = delays
        if fault == .delay, !delays.isEmpty { delays[0] += DeliveryFault.delayMilliseconds }
        var attempts: [DeliveryAttempt] = []
        var sentAfter = 0
        for (index, delay) in delays.enumerated() {
            sentAfter += delay
            if delay > 0 { wait(delay) }
            if index > 0 && !proceeding() { break }
            var attempt: DeliveryAttempt
            switch fault.map({ $0.fate(ofAttempt: index) }) ?? fate(index) {
            case .lost(let name):
                attempt = DeliveryAttempt(number: index + 1, sentAfter: sentAfter, headers: [])
                attempt.failure = "lost on the way, as a timeout (the fault \(name))"
            case .answerLost(let name):
                attempt = send(index + 1, sentAfter)
                attempt.answerLost(fault: name)
            case .sent:
                attempt = send(index + 1, sentAfter)
            }
            attempts.append(attempt)
            onAttempt(attempt)
            if finished(attempt) { break }
        }
        return attempts
    }
}

extension DeliveryAttempt {
    /// The attempt as Appcharge saw it when its answer was lost on the way back: no answer,
    /// a timeout, though the server had its request.
    public mutating func answerLost(fault: String) {
        status = nil
        publisherPurchaseId = nil
        publisherErrorMessage = nil
        responseHeaders = []
        responseBody = []
        failure = "its answer lost on the way back, as a timeout (the fault \(fault))"
    }
}

/// Appcharge's delivery of one award: an attempt, and more on ``AwardSchedule`` until one
/// grants it; and what the client hears of it.
public enum AwardDelivery {
    /// Sends attempts until one grants the award or the schedule ends: `wait` is asked to
    /// pause before each retry (virtual time pauses not at all), `send` makes one attempt
    /// given its number and when it is sent, and `onAttempt` sees each as it ends. A retry
    /// starts only while `proceeding()` says so: a server that stops sends no more.
    public static func attempts(
        wait: (_ milliseconds: Int) -> Void, send: (_ number: Int, _ sentAfter: Int) -> DeliveryAttempt,
        onAttempt: (DeliveryAttempt) -> Void = { _ in }, proceeding: () -> Bool = { true }
    ) -> [DeliveryAttempt] {
        RetryLoop.attempts(
            delays: AwardSchedule.retryDelays, wait: wait, send: send, onAttempt: onAttempt, finished: \.succeeded,
            proceeding: proceeding)
    }

    /// How an award with `fault` on its way goes where no game's server is named: each
    /// attempt that would reach one is granted, and one lost, or whose answer is lost, is a
    /// timeout, on the schedule's virtual time.
    public static func unsent(_ fault: AwardFault) -> AwardVerdict {
        let attempts = RetryLoop.attempts(
            delays: AwardSchedule.retryDelays, wait: { _ in },
            send: { number, sentAfter in DeliveryAttempt(number: number, sentAfter: sentAfter, headers: []) },
            onAttempt: { _ in }, finished: \.succeeded, fate: fault.fate(ofAttempt:), proceeding: { true })
        return verdict(attempts, url: "the game's server (none named)")
    }

    /// The `error.data` of a purchase whose award failed on every attempt, or nil when the
    /// last attempt granted it: how many attempts, the last status and the server's message.
    public static func failureData(_ attempts: [DeliveryAttempt]) -> String? {
        guard let last = attempts.last, !last.succeeded else { return nil }
        var data = JSONWriter()
        data.openObject()
        data.field("awardAttempts", attempts.count)
        data.key("lastStatus")
        if let status = last.status { data.int(status) } else { data.null() }
        data.key("publisherErrorMessage")
        if let message = last.publisherErrorMessage { data.string(message) } else { data.null() }
        data.field("reason", last.failure ?? "")
        data.closeObject()
        return data.output
    }

    /// How the purchase ends after `attempts` to `url`: granted, or failed with the data
    /// of the client's 3003; each attempt's request (headers, the signature, never the key)
    /// and result, for the simulator's trace, at the moment it was sent.
    public static func verdict(_ attempts: [DeliveryAttempt], url: String) -> AwardVerdict {
        var events: [(after: Int, message: String)] = []
        var previous = 0
        for attempt in attempts {
            let headers = attempt.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
            events.append((attempt.sentAfter - previous, "award attempt \(attempt.number): POST \(url) (\(headers))"))
            // Stamped when it was sent, as the simulator's clock keeps the retry schedule, not
            // the exchange's real time: the line says how long after that it ended, once (a
            // time-out's reason says it already).
            let failure = attempt.failure ?? ""
            let statesTime =
                attempt.publisherPurchaseId == nil
                && (failure.firstOccurrence(of: " after ") != nil || failure.firstOccurrence(of: " within ") != nil)
            let result = attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(failure)"
            let ended = statesTime ? "" : ", \(attempt.milliseconds) ms after it was sent"
            events.append((0, "award attempt \(attempt.number): \(result)\(ended)"))
            previous = attempt.sentAfter
        }
        guard let data = failureData(attempts) else { return AwardVerdict(outcome: .granted, events: events) }
        return AwardVerdict(outcome: .failed(data: data), events: events)
    }
}

extension GrantAward {
    /// The award of `order`, at the price point of `catalog`'s offer of the order's SKU (none
    /// for an SKU the catalog does not hold), its money figured with `rates`.
    public init(order: OrderResponseModel, catalog: Catalog, rates: OrderMoney.Rates = .standard) {
        self.init(order: order, money: OrderMoney(order: order, catalog: catalog, rates: rates))
    }
}

extension OrderMoney {
    /// The money of `order`, at the price point of `catalog`'s offer of its SKU (none for an
    /// SKU the catalog does not hold), under the terms `catalog` gives its country.
    public init(order: OrderResponseModel, catalog: Catalog, rates: Rates = .standard) {
        self.init(
            order: order, pricePoint: catalog.offer(sku: order.offerSku).map { GrantAward.cents($0.basePriceInUSD) },
            catalog: catalog, rates: rates)
    }
}
