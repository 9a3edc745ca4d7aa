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
