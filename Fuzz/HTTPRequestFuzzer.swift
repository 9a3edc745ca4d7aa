// libFuzzer target: what a client sends a server. The bytes are read as requests, one after
// another as on a kept-alive connection, by the server's parser, with the transport alone.
// Nothing may trap; the parser never claims more bytes than it was given and reads a
// request from its own bytes alone, and the same when they arrive a byte at a time; each
// request is answered, and what the parser refuses is answered as the server refuses it,
// with a status HTTP has and the connection closed.

@testable import PaylinksHTTP

/// What the server answers on its own, as its user words it: the status and the reason.
private func refusal(_ refused: HTTPServer.Refusal) -> HTTPServerResponse {
    HTTPServerResponse(status: refused.status, contentType: "text/plain", body: Array(refused.message.utf8))
}

/// libFuzzer's entry point: one client's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = HTTPRequestParser(maximumHeadSize: 4096, maximumBodySize: 8192)
    var rest = bytes[...]
    while !rest.isEmpty {
        let result: HTTPRequestParser.Result
        do {
            result = try parser.parse(rest)
        } catch {
            let refused = refusal(.cannotTake(error))
            precondition((400...599).contains(refused.status), "a refusal that is not an error")
            precondition(!error.message.isEmpty, "a refusal that says nothing")
            _ = refused.encoded(closing: true)
            break
        }
        guard case .complete(let request, let length) = result else {
            // A request still arriving: whether its client waits for leave to send its body.
            var progress = HTTPRequestParser.Progress()
            _ = try? parser.parse(rest, resuming: &progress)
            _ = parser.expectsContinue(progress)
            break
        }
        precondition(length > 0 && length <= rest.count, "a request longer than its bytes")
        // The request's own bytes alone give the same request.
        let alone = try? parser.parse(rest.prefix(length))
        precondition(alone == result, "a request that needs what follows it")
        // Arriving a byte at a time, each read going on from the last, it is the same request.
        var progress = HTTPRequestParser.Progress()
        var pieced = HTTPRequestParser.Result.incomplete
        for end in rest.startIndex + 1...rest.startIndex + length where pieced == .incomplete {
            pieced = (try? parser.parse(rest[..<end], resuming: &progress)) ?? .incomplete
        }
        precondition(pieced == result, "a request read otherwise when it arrives in pieces")
        let answer = HTTPServerResponse(status: 200, contentType: "text/plain", body: Array(request.path.utf8))
        _ = answer.encoded(closing: !request.keepAlive, head: request.method == .head)
        rest = rest.dropFirst(length)
    }
    return 0
}
