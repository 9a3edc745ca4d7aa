import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The cases of `check-events` that need no ledger: forged events refused, and valid
/// events accepted whatever their fields, names and numbers.
extension EventAudit {
    /// Sends the requests of `auditCase` and judges what came back.
    func runCase(_ auditCase: EventAuditCase) throws(AuditCannotRun) -> AuditFinding {
        let name = auditCase.name
        switch auditCase {
        case .valid:
            let order = orders.fresh(player: newPlayer())
            return acceptance(name, send(event(.created, of: order)), sent: "a valid event for a new order")
        case .forged(let forgery):
            return rejection(name, forgery)
        case .unknownFields:
            return variant(
                name, "a valid event with fields the handler has never seen (the schema grows)",
                why: "Appcharge adds fields as its schema evolves: ignore the ones you do not know"
            ) { body in
                Self.inserting(#""futureField":{"nested":[1,"two",null]},"extensionData":"x","#, atStartOf: body)
            }
        case .missingFields:
            return minimal(name)
        case .typeVariants:
            return variant(
                name,
                "a valid event with the documented type variants: \"isSavedPaymentMethodUsed\": \"True\", "
                    + "customer.playerId, productQuantity and amounts as strings",
                why: "the docs' own examples mix types: parse leniently, never refuse a verified event for a type"
            ) { body in
                Self.replacing(
                    [
                        (#""isSavedPaymentMethodUsed":false"#, #""isSavedPaymentMethodUsed":"True""#),
                        (#""customer":{"id":"#, #""customer":{"playerId":"#),
                        // V1's examples give the price point as a string.
                        (#""pricePointMetadata":499,"#, #""pricePointMetadata":"499","#),
                    ], in: body)
            }
        case .namesSpaces:
            return named(
                name, "a valid event whose names hold spaces", offerName: "Starter Pack Deluxe Edition",
                suspect: AuditSuspect.spaces)
        case .namesSlashQuotes:
            return named(
                name, "a valid event whose names hold '/' and quotes", offerName: #"Gold/"Legendary"/Pack"#,
                suspect: AuditSuspect.slashes)
        case .namesUnicode:
            return named(
                name, "a valid event whose names hold non-ASCII letters and emoji", offerName: "Épée_de_Dragón_🐉",
                suspect: AuditSuspect.unicode)
        case .numbers:
            return variant(
                name, "a valid event whose numbers include 100.0 and 0.00",
                why: "the handler verifies something other than the raw bytes received (\(AuditSuspect.numbers))"
            ) { body in
                Self.replacing(
                    [
                        (#""discountAmount":0"#, #""discountAmount":0.00"#), (#""taxAmount":0"#, #""taxAmount":100.0"#),
                        // V1's.
                        (#""tax":0"#, #""tax":0.00"#), (#""priceInDollar":499"#, #""priceInDollar":499.0"#),
                    ], in: body)
            }
        case .businessFailure:
            return businessFailure(name)
        case .refund, .duplicate, .duplicateRace, .refundFirst, .refundUngranted, .disputeLost, .disputeWon,
            .partialRefund:
            return try money(auditCase)
        }
    }

    // MARK: Signatures and tolerance

    private func rejection(_ name: String, _ forgery: SignatureForgery) -> AuditFinding {
        let sent = forgery.sent("event")
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        let forged = forgery.forge(
            body: event.body, milliseconds: clock(), key: events.key,
            field: version == .v2 ? "subtotal" : "priceInCents")
        let headers = baseHeaders() + (forged.signature.map { [HTTPHeader("signature", $0)] } ?? [])
        let exchange = handler.send(body: forged.body, headers: headers)
        if let failure = exchange.answer.refusalFailure(
            accepting:
                "forge or replay events, a refund that takes a player's items or a dispute won that restores them")
        {
            return exchange.answer.finding(name, .fail, failure.summary, sent: sent, why: failure.why)
        }
        let status = exchange.status ?? 0
        return exchange.answer.finding(name, .pass, "refused (\(status))", sent: sent, why: "")
    }

    /// A valid event whose body `change` rewrites before it is signed.
    private func variant(_ name: String, _ sent: String, why: String, change: ([UInt8]) -> [UInt8])
        -> AuditFinding
    {
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        return tolerance(name, send(body: change(event.body)), sent: sent, why: why)
    }

    /// An event of nothing but its name, its id and its time.
    private func minimal(_ name: String) -> AuditFinding {
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        var writer = JSONWriter()
        writer.openObject()
        switch version {
        case .v2:
            writer.field("eventName", event.name.v2Name)
            writer.field("eventId", event.eventId)
            writer.field("timestamp", clock())
        case .v1:
            writer.field("event", event.name.v1Name)
            writer.field("timestamp", clock() / 1000)
        }
        writer.closeObject()
        return tolerance(
            name, send(body: writer.bytes), sent: "a valid event with its name, id and time and nothing else",
            why: "every field of an event is optional: read what is there, never refuse a verified event for a gap")
    }

    private func named(_ name: String, _ sent: String, offerName: String, suspect: String) -> AuditFinding {
        let order = orders.fresh(player: newPlayer(), offerName: offerName)
        return tolerance(
            name, send(event(.created, of: order)), sent: sent,
            why: "the handler verifies something other than the raw bytes received (\(suspect))")
    }

    private func tolerance(_ name: String, _ exchange: AuditExchange, sent: String, why: String) -> AuditFinding {
        EventAuditVerdicts.tolerance(name, exchange.answer, sent: sent, why: why)
    }

    /// A valid event, which must be accepted at once.
    func acceptance(_ name: String, _ exchange: AuditExchange, sent: String) -> AuditFinding {
        EventAuditVerdicts.acceptance(name, exchange.answer, sent: sent)
    }

    private func businessFailure(_ name: String) -> AuditFinding {
        let order = orders.fresh(player: newPlayer())
        let sent = "a verified \(called(.refunded)) of an order the handler has never heard of"
        let exchange = send(event(.refunded, of: order))
        return EventAuditVerdicts.businessFailure(name, exchange.answer, sent: sent, version: version)
    }

    // MARK: Bodies

    /// `body` with `text` after its opening brace.
    private static func inserting(_ text: String, atStartOf body: [UInt8]) -> [UInt8] {
        guard body.first == UInt8(ascii: "{") else { return body }
        return [UInt8(ascii: "{")] + Array(text.utf8) + body.dropFirst()
    }

    /// `body` with the first occurrence of each pair's first text replaced by its second.
    private static func replacing(_ pairs: [(String, String)], in body: [UInt8]) -> [UInt8] {
        var text = String(decoding: body, as: UTF8.self)
        for (target, replacement) in pairs {
            guard let range = text.firstOccurrence(of: target) else { continue }
            text = String(text[..<range.lowerBound]) + replacement + String(text[range.upperBound...])
        }
        return Array(text.utf8)
    }
}
