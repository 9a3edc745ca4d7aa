import ContractChecks
import PaylinksHTTP
import PaylinksSandbox
import Testing

extension Sandbox {
    /// The answer to `request`, as ``handle(_:)`` gives it, with the exchange held to the
    /// sandbox's OpenAPI document: every way it departs is an issue of the calling test.
    func handleChecked(_ request: HTTPRequest, sourceLocation: SourceLocation = #_sourceLocation)
        -> HTTPServerResponse
    {
        let response = handle(request)
        checkContract(request: request, response: response, sourceLocation: sourceLocation)
        return response
    }
}

/// Records an issue for each way a request the sandbox sent the game's server departs from
/// its webhook in the sandbox's OpenAPI document: an event V2 names itself in `eventName`,
/// a V1 event in `event`, and anything else is a Grant Award Callback.
func checkWebhook(
    headers: [(name: String, value: String)], body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) {
    let text = String(decoding: body, as: UTF8.self)
    let name =
        text.contains(#""eventName":"#) ? "eventV2" : text.contains(#""event":"#) ? "eventV1" : "grantAward"
    switch sandboxContract {
    case .success(let contract):
        for problem in contract.webhookProblems(name: name, headers: headers.map { ($0.name, $0.value) }, body: body) {
            Issue.record(Comment(rawValue: "OpenAPI: " + problem), sourceLocation: sourceLocation)
        }
    case .failure(let error):
        Issue.record(Comment(rawValue: "OpenAPI: \(error)"), sourceLocation: sourceLocation)
    }
}
