// libFuzzer target: a game's server's answer to an award. The input is the body of a 200.
// A plain grant is read without the general JSON parser: whatever the body, the answer must
// grant exactly what the JSON parser's reading grants, and name the same members.

import PaylinksJSON

@testable import PaylinksAppcharge

/// libFuzzer's entry point: one answer's body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAwardAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let answer = AwardAnswer(status: 200, body: body)
    var members: [(key: String, value: JSONValue)] = []
    if let parsed = try? JSONParser.parse(body), case .object(let all) = parsed.kind { members = all }
    var id: String?
    for member in members.reversed() where member.key == "publisherPurchaseId" {
        if case .string(let text) = member.value.kind {
            id = text
            break
        }
    }
    let grant = id.flatMap { $0.isEmpty ? nil : $0 }
    precondition(answer.grantId == grant, "a grant read apart from the JSON parser's reading")
    precondition((answer.problem == nil) == (grant != nil), "a problem with a grant, or none without")
    precondition(answer.has("publisherPurchaseId") == members.contains { $0.key == "publisherPurchaseId" })
    precondition(answer.string("publisherPurchaseId") == id, "a member read apart")
    return 0
}
