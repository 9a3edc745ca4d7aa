import PaylinksHTTP

extension Sandbox {
    /// `GET /openapi.json`: the sandbox's OpenAPI document, the very bytes of
    /// `Schemas/sandbox.openapi.json`, which describes every route of ``routes`` and what
    /// the sandbox sends the game's server.
    static let openAPIDocument = HTTPServerResponse(
        status: 200, contentType: "application/json", body: Array((SandboxOpenAPIDocument.text + "\n").utf8))
}
