// libFuzzer target: what a client sends `paylinks serve`. The bytes are read as requests,
// one after another as on a kept-alive connection, and each request the parser takes is
// handed to a sandbox. Neither may trap, and the parser never claims more bytes than it
// was given.

import PaylinksKit
import PaylinksSandbox

@testable import PaylinksHTTP

/// A sandbox shared by many inputs, so that sessions made by one input meet later ones.
/// It is replaced by a fresh one every `inputsPerSandbox` inputs: a store that only grows
/// would make each input slower than the last.
nonisolated(unsafe) private var sandbox = freshSandbox()
nonisolated(unsafe) private var inputsSeen = 0
private let inputsPerSandbox = 4096

private func freshSandbox() -> Sandbox {
    var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token", seed: 1)
    // A known form token, which the corpus's forms carry, so that inputs reach the forms'
    // routes past the check that refuses a form without it.
    settings.formToken = "token"
    return Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
}

/// libFuzzer's entry point: one client's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    inputsSeen += 1
    if inputsSeen.isMultiple(of: inputsPerSandbox) { sandbox = freshSandbox() }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = HTTPRequestParser(maximumHeadSize: 4096, maximumBodySize: 8192)
    var rest = bytes[...]
    while !rest.isEmpty {
        guard case .complete(let request, let length)? = try? parser.parse(rest) else { break }
        precondition(length > 0 && length <= rest.count, "a request longer than its bytes")
        let response = sandbox.handle(request)
        precondition((100...599).contains(response.status), "a status outside HTTP's")
        _ = response.encoded(closing: !request.keepAlive, head: request.method == .head)
        rest = rest.dropFirst(length)
    }
    return 0
}
