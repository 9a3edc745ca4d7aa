import Testing

@testable import PaylinksHTTP

/// How the loops' turns reach their responder: every turn posted by the time one loop
/// holds the lock, and every turn posted while it answers, is one batch, one `endBatch()`
/// for all of them (one sync of a journal); a loop whose turn another's batch took finds its
/// answers made.
@Suite("Turn batches")
struct TurnBatchesTests {
    /// A responder that notes each call, answers each request 200 with its path, holds the
    /// answer of `/wait`, and posts `joining` into `batches` when it answers `/post`, as
    /// another loop would while the batch is under way.
    final class Recorder: HTTPResponder, @unchecked Sendable {
        var calls: [String] = []
        var batches: TurnBatches<Recorder>?
        var joining: [(connection: ObjectIdentifier, request: HTTPRequest)] = []
        var joined: TurnBatches<Recorder>.Turn?

        func prepare(_ request: HTTPRequest) -> HTTPRequest { request }

        func respond(to request: HTTPRequest) -> HTTPAnswer {
            calls.append("respond \(request.path)")
            if request.path == "/post", let batches { joined = batches.post(joining) }
            if request.path == "/wait" { return .awaited(HTTPPromise()) }
            return .ready(HTTPServerResponse(status: 200, body: Array(request.path.utf8)))
        }

        func beginBatch() { calls.append("begin") }
        func endBatch() { calls.append("end") }
        var isStopping: Bool { false }
    }

    final class Connection {}

    static func requests(_ connection: Connection, _ paths: String...) -> [(
        connection: ObjectIdentifier, request: HTTPRequest
    )] {
        paths.map {
            (
                ObjectIdentifier(connection),
                HTTPRequest(method: .get, path: $0, query: "", headers: [], body: [], keepAlive: true)
            )
        }
    }

    static func bodies(_ answers: [HTTPAnswer?]) -> [String?] {
        answers.map { answer in answer?.made.map { String(decoding: $0.body, as: UTF8.self) } ?? nil }
    }

    @Test("turns posted before a batch begins are answered in it, and each loop finds its own answers")
    func postedTogether() {
        let recorder = Recorder()
        let batches = TurnBatches(recorder)
        let (first, second) = (Connection(), Connection())
        let one = batches.post(Self.requests(first, "/a", "/b"))
        let two = batches.post(Self.requests(second, "/c"))
        #expect(Self.bodies(batches.answer(one)) == ["/a", "/b"])
        #expect(recorder.calls == ["begin", "respond /a", "respond /b", "respond /c", "end"])
        #expect(Self.bodies(batches.answer(two)) == ["/c"])
        // The second loop's turn was answered already: no batch of its own.
        #expect(recorder.calls.count == 5)
        // A turn posted after the batch ended has one of its own.
        let three = batches.post(Self.requests(second, "/d"))
        #expect(Self.bodies(batches.answer(three)) == ["/d"])
        #expect(recorder.calls.suffix(3) == ["begin", "respond /d", "end"])
    }

    @Test("a turn posted while a batch is under way joins it, before its end")
    func postedDuring() {
        let recorder = Recorder()
        let batches = TurnBatches(recorder)
        recorder.batches = batches
        recorder.joining = Self.requests(Connection(), "/late")
        let turn = batches.post(Self.requests(Connection(), "/post"))
        #expect(Self.bodies(batches.answer(turn)) == ["/post"])
        #expect(recorder.calls == ["begin", "respond /post", "respond /late", "end"])
        guard let joined = recorder.joined else {
            Issue.record("the responder posted no turn")
            return
        }
        #expect(Self.bodies(batches.answer(joined)) == ["/late"])
        #expect(recorder.calls.count == 4)
    }

    @Test("a request behind an awaited answer on its connection waits, whichever turn it came in")
    func behindAwaited() {
        let recorder = Recorder()
        let batches = TurnBatches(recorder)
        let (waiting, other) = (Connection(), Connection())
        let one = batches.post(Self.requests(waiting, "/wait", "/after"))
        let two = batches.post(Self.requests(other, "/free") + Self.requests(waiting, "/later"))
        let answers = batches.answer(one)
        #expect(answers.count == 2)
        #expect(answers[1] == nil)
        #expect(Self.bodies(batches.answer(two)) == ["/free", nil])
        #expect(recorder.calls == ["begin", "respond /wait", "respond /free", "end"])
    }
}
