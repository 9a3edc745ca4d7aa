/// One connection of a server's loop: what has arrived on it, the answers it is owed and
/// has not taken yet, and where it is in its life. Touched only on its loop's thread.
final class HTTPConnection {
    /// Where a connection is in its life.
    enum State: Equatable {
        /// It reads requests and is answered.
        case reading
        /// It reads no further and ends once its answers are sent.
        case finishing
        /// It ends at the end of the loop's turn.
        case closing
        /// It ends at the end of the loop's turn for taking too little: what it was owed is
        /// dropped at once.
        case aborting
    }

    let socket: Socket
    private(set) var state = State.reading
    var buffer: [UInt8] = []
    /// How far the parser got in the request at the start of `buffer`: each byte of it is
    /// read once, however many reads it arrives in.
    var progress = HTTPRequestParser.Progress()
    /// When the request now arriving began, or when the connection last went idle.
    var since: Int
    /// Whether the request arriving was told `100 Continue`.
    var continued = false
    /// Answers not sent yet, from `outputStart` on.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// When the connection last took bytes of its answers, while it has some pending.
    private(set) var writtenSince = 0
    /// Since when, and how much of its answers it has taken since, and what it was owed
    /// then: whether it takes at least ``HTTPServer/Limits/leastTaken`` a read time.
    var takingSince = 0
    var takenSince = 0
    var owedAtTakingSince = 0
    /// Requests answered on it.
    var served = 0
    /// Answers owed to it in the loop's batch.
    var queued = 0
    /// Whether the last answer it is owed in the batch ends it, so that it is read no further.
    var lastQueued = false
    /// Answers handled and not sent yet, in order, while it has not taken those before:
    /// each made (when made later) only once it goes out.
    var waiting: [(answer: HTTPAnswer, closing: Bool, head: Bool)] = []
    /// Requests read after an awaited answer not given yet, in order: handled once it is.
    var held: [(request: HTTPRequest, closing: Bool, head: Bool)] = []

    /// How much of a connection's answers may wait before it is read no further.
    static let readAhead = 64 << 10

    /// Bytes of answers not sent yet.
    var pending: Int { output.count - outputStart }

    /// Whether it ends at the end of the loop's turn.
    var isClosing: Bool { state == .closing || state == .aborting }

    init(socket: Socket, now: Int) {
        self.socket = socket
        since = now
    }

    /// Ends it once its answers are sent, unless it ends sooner already.
    func closeAfterOutput() {
        if state == .reading { state = .finishing }
    }

    /// Ends it at the end of the loop's turn, unless it is aborted already.
    func close() {
        if state != .aborting { state = .closing }
    }

    /// Ends it at the end of the loop's turn, dropping what it was owed.
    func abort() {
        state = .aborting
    }

    /// Queues `bytes` on the connection and sends what it takes now.
    func send(_ bytes: [UInt8], closing: Bool) {
        guard state == .reading else { return }
        if pending == 0 {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            writtenSince = Deadline.nowMilliseconds()
            takingSince = writtenSince
            takenSince = 0
            owedAtTakingSince = bytes.count
        }
        output += bytes
        if closing { closeAfterOutput() }
        flush()
    }

    /// Sends what the connection takes of its answers now.
    func flush() {
        guard pending > 0, !isClosing else { return }
        guard let sent = socket.writeAvailable(output[outputStart...]) else {
            close()
            return
        }
        if sent > 0 {
            outputStart += sent
            takenSince += sent
            writtenSince = Deadline.nowMilliseconds()
        }
        if pending == 0 {
            output.removeAll(keepingCapacity: output.count <= Self.readAhead)
            outputStart = 0
            if state == .finishing { state = .closing }
        }
    }
}
