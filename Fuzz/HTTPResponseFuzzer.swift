// libFuzzer target: the HTTP response parser. The input is what a server sent; the first
// byte chooses the method and where the connection split it. The parser must never trap,
// must read a response from its own bytes alone, must never claim more bytes than it was given,
// must read in two reads what it reads in one, and must frame and refuse a response read
// for its framing only exactly as one read with its headers.

@testable import PaylinksHTTP

/// libFuzzer's entry point: one server's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let parser = HTTPResponseParser(maximumResponseSize: 4096, method: control & 1 == 0 ? .post : .head)
    let closed = control & 2 != 0
    let whole = try? parser.parse(bytes[...], closed: closed)
    if case .complete(_, let length, _)? = whole {
        precondition(length > 0 && length <= bytes.count, "a response longer than its bytes")
        // The response's own bytes alone give the same response.
        let alone = try? parser.parse(bytes[..<length], closed: closed)
        precondition(alone == whole, "a response that needs what follows it")
    }
    // Split where the connection might have: what is complete claims no more than it has.
    let split = bytes.isEmpty ? 0 : Int(control >> 2) % (bytes.count + 1)
    if case .complete(_, let length, _)? = try? parser.parse(bytes[..<split], closed: false) {
        precondition(length <= split, "a response longer than the bytes split")
    }
    // Read in two reads, the second going on from the first: what one read of it all gives.
    var progress = HTTPResponseParser.Progress()
    if (try? parser.parse(bytes[..<split], closed: false, resuming: &progress)) == .incomplete,
        let whole, let resumed = try? parser.parse(bytes[...], closed: closed, resuming: &progress)
    {
        precondition(resumed == whole, "a response read in two reads differs from one read")
    }
    // Read for its framing only: the same response without its headers, or the same refusal.
    var bare = parser
    bare.keepsHeaders = false
    let full = Result { () throws(HTTPError) in try parser.parse(bytes[...], closed: closed) }
    let headless = Result { () throws(HTTPError) in try bare.parse(bytes[...], closed: closed) }
    switch (full, headless) {
    case (.success(.complete(var response, let length, let keepAlive)), .success(let other)):
        response.headers = []
        precondition(other == .complete(response, length: length, keepAlive: keepAlive), "framed apart")
    case (.success(.incomplete), .success(let other)): precondition(other == .incomplete, "framed apart")
    case (.failure(let one), .failure(let other)): precondition(one == other, "refused apart")
    default: preconditionFailure("one reading refuses what the other takes")
    }
    return 0
}
