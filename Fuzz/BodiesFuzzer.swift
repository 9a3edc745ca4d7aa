// libFuzzer target: a request's JSON body. A text the tape takes, the parser takes too, and
// both give the same values; a Create Checkout Session body or a price lookup's read off
// the tape is the same request, or the same problems, as the body parsed.

import PaylinksJSON

@testable import PaylinksAppcharge

/// libFuzzer's entry point: one body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBodies(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    guard let tape = JSONTape(body) else { return 0 }
    let tree: JSONValue
    do {
        tree = try JSONParser.parse(body)
    } catch {
        preconditionFailure("the tape took a text the parser refuses: \(error.reason)")
    }
    precondition(written(tape.root) == written(tree), "the tape read other values than the parser")
    precondition(tape.root.nesting == tree.nesting, "the tape nests otherwise than the parser")
    precondition(reading(tape.root) == reading(tree), "a session read off the tape is not the session parsed")
    precondition(lookup(tape.root) == lookup(tree), "a price lookup read off the tape is not the lookup parsed")
    return 0
}

/// The value as compact JSON.
private func written(_ value: some JSONReadable) -> [UInt8] {
    var writer = JSONWriter()
    value.write(to: &writer)
    return writer.bytes
}

/// What a Create Checkout Session body of `root` is: every field, or every problem.
private func reading(_ root: some JSONReadable) -> String {
    do {
        return String(describing: try SessionRequest(reading: root))
    } catch {
        return "problems: \(error.all) / \(error.message)"
    }
}

/// What a price lookup's body of `root` is: the request, or its problem.
private func lookup(_ root: some JSONReadable) -> String {
    do {
        return String(describing: try PriceLookup.read(root: root))
    } catch {
        return "problem: \(error.message)"
    }
}
