// What the test targets that talk to the sandbox share: its OpenAPI document, read once,
// and the checks that make each way an exchange departs from it an issue of the test.
// A build of every target that is not a test build (`make release`) has no Testing module
// to import: there this module is empty, and nothing that ships depends on it.

#if canImport(Testing)

    import Foundation
    public import PaylinksHTTP
    public import Testing
    public import _OpenAPIContract

    /// Where the sandbox's OpenAPI document is: Schemas/sandbox.openapi.json, or the file
    /// `PAYLINKS_OPENAPI_DOCUMENT` names (a draft to hold the tests' exchanges to).
    public let sandboxDocumentPath =
        ProcessInfo.processInfo.environment["PAYLINKS_OPENAPI_DOCUMENT"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/sandbox.openapi.json").path

    /// The sandbox's OpenAPI document as a contract, read once; what could not be read, as the
    /// problem every check reports.
    public let sandboxContract: Result<OpenAPIContract, ContractUnreadable> = Result { () throws(ContractUnreadable) in
        do {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandboxDocumentPath)))
            return try OpenAPIContract(document: bytes)
        } catch {
            throw ContractUnreadable(description: "\(sandboxDocumentPath): \(error)")
        }
    }

    /// Why the sandbox's OpenAPI document could not be read.
    public struct ContractUnreadable: Error, CustomStringConvertible {
        /// The file, and what was wrong with it.
        public let description: String
    }

    /// Records an issue for each way the in-process exchange of `request` and `response` departs
    /// from the sandbox's OpenAPI document. A `HEAD` answer is checked without its body, which
    /// the server leaves out.
    public func checkContract(
        request: HTTPRequest, response: HTTPServerResponse, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(
            sandboxContract.map { contract in
                contract.problems(
                    method: request.method.rawValue, path: request.path, query: request.query,
                    requestHeaders: request.headers.map { ($0.name, $0.value) }, requestBody: request.body,
                    status: response.status, responseHeaders: response.headers.map { ($0.name, $0.value) },
                    responseBody: request.method == .head ? [] : response.body)
            }, sourceLocation)
    }

    /// Records an issue for each way an exchange on the wire, `request` (head and body) and the
    /// `answer` it had, departs from the sandbox's OpenAPI document.
    public func checkContract(request: String, answer: String, sourceLocation: SourceLocation = #_sourceLocation) {
        record(
            sandboxContract.map { $0.problems(request: Array(request.utf8), answer: Array(answer.utf8)) },
            sourceLocation)
    }

    /// Records each problem as an issue at `sourceLocation`, or the document's own.
    func record(_ problems: Result<[String], ContractUnreadable>, _ sourceLocation: SourceLocation) {
        switch problems {
        case .success(let problems):
            for problem in problems {
                Issue.record(Comment(rawValue: "OpenAPI: " + problem), sourceLocation: sourceLocation)
            }
        case .failure(let error):
            Issue.record(Comment(rawValue: "OpenAPI: \(error)"), sourceLocation: sourceLocation)
        }
    }

    /// Records an issue for each way an exchange given in parts departs from the sandbox's
    /// OpenAPI document.
    public func checkContract(
        method: String, path: String, query: String, headers: [OpenAPIContract.Header], body: [UInt8], status: Int,
        responseHeaders: [OpenAPIContract.Header], responseBody: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(
            sandboxContract.map {
                $0.problems(
                    method: method, path: path, query: query, requestHeaders: headers, requestBody: body,
                    status: status,
                    responseHeaders: responseHeaders, responseBody: responseBody)
            }, sourceLocation)
    }

    /// Records an issue for each way an exchange read in parts departs from the sandbox's
    /// OpenAPI document: what a helper that takes the answer apart has.
    public func checkContract(
        request: HTTPRequest, status: Int, headers: [HTTPHeader], body: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var response = HTTPServerResponse(status: status, body: body)
        response.headers = headers
        checkContract(request: request, response: response, sourceLocation: sourceLocation)
    }
#endif
