import PaylinksJSON
import Testing

@testable import PaylinksAppcharge

/// What `read` gave: the value's every field, or `problem`'s words for what it threw.
private func outcome<Value, Failure: Error>(_ read: () throws(Failure) -> Value, problem: (Failure) -> String)
    -> String
{
    do {
        return String(describing: try read())
    } catch {
        return problem(error)
    }
}

/// What `read` gives of `body` off its tape, once the tape is checked to take the body and
/// `read` to give the same of the body parsed.
private func taped(
    _ body: String, _ read: (JSONTapeValue) -> String, _ readParsed: (JSONValue) -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let bytes = Array(body.utf8)
    let tape = try #require(JSONTape(bytes), "the tape takes the body", sourceLocation: sourceLocation)
    let taped = read(tape.root)
    #expect(taped == readParsed(try JSONParser.parse(bytes)), sourceLocation: sourceLocation)
    return taped
}

/// A Create Checkout Session body reads the same off a tape as parsed: the same session, or
/// the same problems in the same order.
@Suite("Session request")
struct SessionRequestTests {
    private static func problems(_ error: SessionRequest.Problem) -> String {
        "problems: " + error.all.joined(separator: " | ") + " / " + error.message
    }

    /// What reading `root` gave: the request's every field, or its problems.
    private func reading(_ root: some JSONReadable) -> String {
        outcome({ () throws(SessionRequest.Problem) in try SessionRequest(reading: root) }, problem: Self.problems)
    }

    static let deepMetadata =
        String(repeating: #"{"a":"#, count: SessionRequest.metadataDepthLimit + 1) + "1"
        + String(repeating: "}", count: SessionRequest.metadataDepthLimit + 1)

    static let bodies = [
        #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Starter Pack","sku":"starter_pack_001","pricePointMetadata":499},"items":[{"name":"Gems","sku":"gem_01","quantity":100}],"customer":{"id":"cust_98765"},"countryCode2":"US"}"#,
        #"{"priceDetails":{"price":4.99e2,"currency":"EUR"},"offer":{"name":"Pack","sku":"p","displayName":"P","assetUrl":"https://x.example/a.png","description":"d"},"items":[],"customer":{"id":"c","email":"c@example.com","identitySignals":{"firstSeenAt":"2021-01-01T02:00:00.5+02:00"}},"countryCode2":"DE","sessionMetadata":{"level":[1,{"b":null}],"vip":true},"redirectUrl":"https://game.example/back"}"#,
        #"{"priceDetails":{"price":-1,"currency":"usd"},"offer":{"name":"","sku":""},"items":[{"name":1},"x",{"name":"a","sku":"b","quantity":1e30}],"customer":{"id":""},"countryCode2":"UK"}"#,
        #"{"priceDetails":[],"offer":7,"items":{},"customer":"c","countryCode2":12,"sessionMetadata":[1],"redirectUrl":"javascript:alert(1)"}"#,
        #"{"priceDetails":{"price":499.5},"offer":{"name":"n","sku":"s","pricePointMetadata":1000000000001},"customer":{"id":"c","identitySignals":{"firstSeenAt":"yesterday"}}}"#,
        #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"n","sku":"s"},"customer":{"id":"c","identitySignals":[]},"sessionMetadata":"#
            + deepMetadata + "}",
        "[]", "{}", "499",
        unknownFields,
    ]

    /// A session with members the reference has no field for, in every object it reads.
    static let unknownFields =
        #"{"countryCode":"DE","priceDetails":{"price":499,"currency":"USD","curency":"EUR"},"#
        + #""offer":{"name":"n","sku":"s","pricePointMetaData":499},"items":[{"name":"a","sku":"b","quantity":1,"#
        + #""qty":1},{"name":"a","sku":"b","quantity":1,"qty":2,"assetUrl":"u"}],"customer":{"id":"c","customerId":"c"},"#
        + #""redirectURL":"https://x.example","receiptMetadata":{"locale":"fr-CA"},"attributes":{"k":"v"}}"#

    @Test("members the reference has no field for are noted where they are, each key of the items once, at most five")
    func unknownFieldsNoted() throws {
        let request = try SessionRequest(Array(Self.unknownFields.utf8))
        #expect(
            request.unknownFields.map { $0.object + $0.key } == [
                "countryCode", "redirectURL", "priceDetails.curency", "offer.pricePointMetaData", "items[0].qty",
            ])
        #expect(request.unknownFields.first?.fields.contains("countryCode2") == true)
        let known = try SessionRequest(Array(Self.bodies[1].utf8))
        #expect(known.unknownFields.isEmpty)
    }

    @Test("a plain body reads off the tape as it is parsed", arguments: bodies)
    func sameReading(body: String) throws {
        let onTape = try taped(body, reading, reading)
        // Through the front door, the body is read off the tape.
        let bytes = Array(body.utf8)
        #expect(
            outcome({ () throws(SessionRequest.Problem) in try SessionRequest(bytes) }, problem: Self.problems)
                == onTape
        )
    }

    @Test("a body the tape leaves is parsed, escapes and all")
    func parsedBody() throws {
        let body =
            #"{"priceDetails":{"price":499,"currency":"USD"},"offer":{"name":"Caf\u00e9 Pack","sku":"caf\u00e9"},"customer":{"id":"c\"1"}}"#
        #expect(JSONTape(Array(body.utf8)) == nil)
        let request = try SessionRequest(Array(body.utf8))
        #expect(request.offerName == "Café Pack")
        #expect(request.customerId == "c\"1")
    }
}

/// A price lookup's body reads the same off a tape as parsed: the same request, or the
/// same problem.
@Suite("Price lookup request")
struct PriceLookupReadingTests {
    private func reading(_ root: some JSONReadable) -> String {
        outcome(
            { () throws(PriceLookup.Problem) in try PriceLookup.read(root: root) },
            problem: { "problem: " + $0.message })
    }

    @Test(
        "a plain lookup body reads off the tape as it is parsed",
        arguments: [
            #"{"pricesInUsdCents":[99,199,299,499,999,1999,4999,9999],"countryCode2":"DE"}"#,
            #"{"countryCode2":"FR","pricesInUsdCents":[699,699.0,6.99e2]}"#,
            #"{"pricesInUsdCents":[0,-5,1.5,"9",null,[1],{"a":1}],"countryCode2":"DE"}"#,
            #"{"pricesInUsdCents":[99],"countryCode2":"de"}"#, #"{"pricesInUsdCents":[99],"countryCode2":7}"#,
            #"{"pricesInUsdCents":{},"countryCode2":"DE"}"#, #"{"countryCode2":"DE"}"#, "[]", "{}",
            #"{"pricesInUsdCents":["# + (1...51).map(String.init).joined(separator: ",") + #"],"countryCode2":"DE"}"#,
        ])
    func sameReading(body: String) throws {
        let onTape = try taped(body, reading, reading)
        let bytes = Array(body.utf8)
        #expect(
            outcome(
                { () throws(PriceLookup.Problem) in try PriceLookup.read(bytes) }, problem: { "problem: " + $0.message }
            )
                == onTape)
    }
}
