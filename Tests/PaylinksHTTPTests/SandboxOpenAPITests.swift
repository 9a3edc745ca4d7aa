import Foundation
import PaylinksHTTP
import PaylinksKit
import Testing
import _OpenAPIContract

@testable import PaylinksSandbox

/// The sandbox held to Schemas/sandbox.openapi.json: its route table and the document name
/// the same operations, the document's schemas use only keywords the validator knows, and
/// the sandbox serves the document's very bytes.
@Suite("Sandbox OpenAPI document")
struct SandboxOpenAPITests {
    /// Schemas/sandbox.openapi.json, always (not the draft PAYLINKS_OPENAPI_DOCUMENT may name).
    static let documentPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/sandbox.openapi.json").path

    static func documentBytes() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: documentPath)))
    }

    /// The operations of the route table, as `METHOD /path/{capture}`: each row's methods.
    /// The legacy link's row hands the others to its handler only so that a path that is
    /// no session's token is answered 404 whatever the method; a token's page answers them
    /// 405, so the row is its GET and HEAD.
    static var tableOperations: Set<String> {
        var found: Set<String> = []
        for route in Sandbox.routes {
            let template =
                "/"
                + route.pattern.segments.map { segment in
                    switch segment {
                    case .literal(let text): text
                    case .capture(let name): "{\(name)}"
                    }
                }.joined(separator: "/")
            for method in route.methods { found.insert("\(method.rawValue) \(template)") }
        }
        return found
    }

    /// What each side lacks: the table's operations the document does not name, and the
    /// document's the table does not have.
    static func drift(_ contract: OpenAPIContract) -> (undocumented: [String], unrouted: [String]) {
        let table = tableOperations
        return (table.subtracting(contract.operations).sorted(), contract.operations.subtracting(table).sorted())
    }

    @Test("the route table and the document name the same operations, both ways")
    func sameOperations() throws {
        let contract = try OpenAPIContract(document: Self.documentBytes())
        let (undocumented, unrouted) = Self.drift(contract)
        #expect(
            undocumented.isEmpty && unrouted.isEmpty,
            """
            routes the document lacks: \(undocumented.joined(separator: ", "))
            operations no route has: \(unrouted.joined(separator: ", "))
            """)
    }

    @Test("a route taken out of a copy of the document is named as missing")
    func removedRouteIsNamed() throws {
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.documentBytes())) as? [String: Any])
        var paths = try #require(document["paths"] as? [String: Any])
        #expect(paths.removeValue(forKey: "/openapi.json") != nil)
        document["paths"] = paths
        let copy = try JSONSerialization.data(withJSONObject: document)
        let (undocumented, _) = Self.drift(try OpenAPIContract(document: [UInt8](copy)))
        #expect(undocumented.contains("GET /openapi.json") && undocumented.contains("HEAD /openapi.json"))
        // And an operation no route has is named from the other side.
        paths["/nowhere"] = ["get": ["responses": ["200": ["description": "d"]]]]
        document["paths"] = paths
        let extra = try JSONSerialization.data(withJSONObject: document)
        #expect(Self.drift(try OpenAPIContract(document: [UInt8](extra))).unrouted == ["GET /nowhere"])
    }

    @Test("a field renamed in a copy of the document's Problem schema fails a problem the sandbox answers")
    func renamedFieldFails() throws {
        let bytes = try Self.documentBytes()
        let sandbox = Sandbox(
            catalog: .builtIn,
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "t", seed: 7),
            clock: { 1_718_182_312_000 })
        let request = HTTPRequest(
            method: .get, path: "/no/such/path", query: "", headers: [], body: [], keepAlive: true)
        let response = sandbox.handle(request)
        #expect(response.status == 404)
        let check = { (contract: OpenAPIContract) in
            contract.problems(
                method: "GET", path: request.path, status: response.status,
                responseHeaders: response.headers.map { ($0.name, $0.value) }, responseBody: response.body)
        }
        #expect(check(try OpenAPIContract(document: bytes)) == [])
        let renamed = String(decoding: bytes, as: UTF8.self).replacing("\"errorMessage\"", with: "\"message\"")
        let problems = check(try OpenAPIContract(document: Array(renamed.utf8)))
        #expect(problems.contains { $0.contains("message is missing") }, "\(problems)")
        #expect(problems.contains { $0.contains("errorMessage is not a member") }, "\(problems)")
    }

    @Test("every schema of the document uses only keywords the validator knows")
    func knownKeywords() throws {
        let contract = try OpenAPIContract(document: Self.documentBytes())
        #expect(contract.validator.unknownKeywords() == [])
    }

    @Test("GET /openapi.json serves the bytes of Schemas/sandbox.openapi.json")
    func servesTheFile() throws {
        let sandbox = Sandbox(
            catalog: .builtIn,
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "t", seed: 7),
            clock: { 1_718_182_312_000 })
        let response = sandbox.handleChecked(
            HTTPRequest(method: .get, path: "/openapi.json", query: "", headers: [], body: [], keepAlive: true))
        #expect(response.status == 200)
        #expect(
            response.body == (try Self.documentBytes()),
            "the sandbox serves another document than Schemas/sandbox.openapi.json: run `make openapi`")
    }
}
