public import PaylinksAppcharge

/// Awards delivered on threads of their own, so that whoever submits them (a server's
/// loop) never waits for a game's server; ``takeFinished()`` hands back those that ended.
public final class AwardQueue {
    private let url: HTTPURL
    private let key: [UInt8]
    private let publisherToken: String
    private let waitsInRealTime: Bool
    private var running: [(id: String, work: BackgroundWork<[AwardAttempt]>)] = []

    /// A queue of awards to `url`, signed with `key`, retried as ``AwardSender`` does.
    public init(url: HTTPURL, key: [UInt8], publisherToken: String, waitsInRealTime: Bool) {
        self.url = url
        self.key = key
        self.publisherToken = publisherToken
        self.waitsInRealTime = waitsInRealTime
    }

    /// The URL awards go to.
    public var destination: HTTPURL { url }

    /// Awards still on their way.
    public var pending: Int { running.count }

    /// Starts delivering `award`, known as `id`, on a thread of its own.
    public func submit(_ award: GrantAward, id: String) {
        let (url, key, token, real) = (url, key, publisherToken, waitsInRealTime)
        let work = BackgroundWork.start {
            let sender = AwardSender(url: url, key: key, publisherToken: token, waitsInRealTime: real)
            defer { sender.close() }
            return sender.deliver(award) { _ in }
        }
        running.append((id, work))
    }

    /// The awards that have ended since the last call, with their attempts, in the
    /// order they were submitted.
    public func takeFinished() -> [(id: String, attempts: [AwardAttempt])] {
        var finished: [(id: String, attempts: [AwardAttempt])] = []
        running.removeAll { entry in
            guard entry.work.isFinished else { return false }
            finished.append((entry.id, entry.work.join()))
            return true
        }
        return finished
    }

    /// Waits for every award on its way; their attempts.
    public func finishAll() -> [(id: String, attempts: [AwardAttempt])] {
        defer { running = [] }
        return running.map { ($0.id, $0.work.join()) }
    }
}
