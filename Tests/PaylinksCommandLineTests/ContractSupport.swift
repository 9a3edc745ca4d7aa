import ContractChecks
import PaylinksHTTP
import Testing

extension HTTPClient {
    /// ``send(method:headers:body:)`` to a running `paylinks serve`, with the exchange held
    /// to the sandbox's OpenAPI document: every way it departs is an issue of the calling
    /// test. The headers the client adds itself (`Host`, `Content-Length`) are not checked.
    func sendChecked(
        method: HTTPMethod = .post, headers: [HTTPHeader], body: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws(HTTPError) -> HTTPResponse {
        let response = try send(method: method, headers: headers, body: body)
        let target = url.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        checkContract(
            method: method.rawValue, path: String(target.first ?? ""),
            query: target.count > 1 ? String(target[1]) : "", headers: headers.map { ($0.name, $0.value) },
            body: body, status: response.status, responseHeaders: response.headers.map { ($0.name, $0.value) },
            responseBody: method == .head ? [] : response.body, sourceLocation: sourceLocation)
        return response
    }
}
