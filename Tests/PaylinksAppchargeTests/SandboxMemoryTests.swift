import Foundation
import PaylinksJSON
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksKit

/// What the sandbox remembers, as values: a session's record read back whole, the delivery
/// history and its pages, the reporting APIs' answers from the sessions held.
@Suite("The sandbox's memory, as values")
struct SandboxMemoryTests {
    /// A store of four sessions at 2024-06-12 (1718150400 s): one created, one paid and
    /// granted, one paid then refunded in part (at +60 s) and one whose dispute was won (+120 s).
    static func store() throws -> CheckoutSessions {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 100)
        let day = 1_718_150_400_000
        var ids: [String] = []
        for index in 0..<4 {
            let body = Array(CheckoutSessionsTests.body.utf8)
            let (session, _) = try sessions.create(try SessionRequest(body), now: day + index * 1000)
            ids.append(session.purchaseId)
            guard index > 0 else { continue }
            _ = sessions.choose(.pay, paymentMethod: "Visa", for: session, now: day + index * 1000 + 500)
            _ = sessions.awardDelivered(purchaseId: session.purchaseId, failureData: nil)
        }
        for action in OrderLife.refund(amount: 100, succeeds: true) {
            _ = try sessions.act(action, on: ids[2], now: day + 60_000)
        }
        for action in OrderLife(state: .chargeSucceed, price: 499).dispute(to: .won) {
            _ = try sessions.act(action, on: ids[3], now: day + 120_000)
        }
        return sessions
    }

    @Test("a session's record reads back as the same session: its order, its life, its times")
    func recordRoundTrip() throws {
        let sessions = try Self.store()
        for session in sessions.all {
            let copy = try CheckoutSessions.Session(record: try JSONParser.parse(session.record))
            #expect(copy.record == session.record)
            #expect(copy.state == session.state)
            #expect(copy.life?.transitions == session.life?.transitions)
            #expect(copy.lifeTimes == session.lifeTimes)
        }
        let refunded = try #require(sessions.all.first { $0.state == .paymentRefunded })
        #expect(refunded.life?.refundAmount == 100)
        #expect(refunded.lifeTimes == [1_718_150_460_000, 1_718_150_460_000])
    }

    @Test(
        "a record that is not a session says which member is wrong",
        arguments: [
            (#"{"index":"0"}"#, "index is missing or not an integer"),
            (#"[]"#, "not an object"),
        ])
    func badRecord(text: String, problem: String) throws {
        #expect(throws: CheckoutSessions.Session.RecordProblem.self) {
            try CheckoutSessions.Session(record: try JSONParser.parse(Array(text.utf8)))
        }
        do {
            _ = try CheckoutSessions.Session(record: try JSONParser.parse(Array(text.utf8)))
        } catch let error as CheckoutSessions.Session.RecordProblem {
            #expect(error.description == problem)
        }
    }

    @Test("a record whose life its rules refuse, or that ends in another state, is refused")
    func impossibleLife() throws {
        let paid = try #require(try Self.store().all.first { $0.state == .chargeSucceed })
        var text = String(decoding: paid.record, as: UTF8.self)
        #expect(text.contains(#""actions":[]"#))
        // Won without a dispute: the rules refuse it.
        let won = text.replacingOccurrences(
            of: #""actions":[]"#, with: #""actions":[{"at":0,"action":"resolveDispute","won":true}]"#)
        #expect(throws: CheckoutSessions.Session.RecordProblem.self) {
            try CheckoutSessions.Session(record: try JSONParser.parse(Array(won.utf8)))
        }
        // Refunded by its actions, but the record says charge_succeed.
        text = text.replacingOccurrences(
            of: #""actions":[]"#,
            with: #""actions":[{"at":0,"action":"requestRefund"},{"at":0,"action":"processRefund","succeeded":true}]"#)
        #expect(throws: CheckoutSessions.Session.RecordProblem.self) {
            try CheckoutSessions.Session(record: try JSONParser.parse(Array(text.utf8)))
        }
    }

    @Test("ISO 8601 dates in UTC, and what is not one")
    func dates() {
        #expect(UTCDate.parse("2024-06-12") == 1_718_150_400)
        #expect(UTCDate.parse("2024-06-12T08:51:52Z") == 1_718_182_312)
        #expect(UTCDate.parse("2024-06-12T08:51:52.000Z") == 1_718_182_312)
        #expect(UTCDate.parse("2024-02-29") == 1_709_164_800)
        #expect(UTCDate.parse("1970-01-01") == 0)
        for bad in [
            "2023-02-29", "2024-13-01", "2024-06-12T24:00:00Z", "2024-06-12T08:51:52", "12/06/2024", "", "2024-06-1x",
        ] {
            #expect(UTCDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("the orders report: the window, the states, the limit and offset, the reference's fields")
    func ordersReport() throws {
        let sessions = try Self.store().all
        let query = try Reports.ordersQuery(Array(#"{"startDate":"2024-06-12","endDate":"2024-06-12"}"#.utf8))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(Reports.orders(sessions, query))) as? [String: Any])
        #expect(report["totalCount"] as? Int == 3, "a session not paid is no order")
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(
            results.map { $0["state"] as? String } == ["charge_succeed", "payment_refunded", "payment_dispute_won"])
        let first = try #require(results.first)
        for field in [
            "acOrderId", "publisherId", "currency", "priceInCents", "offerName", "createdAt", "playerId",
            "offerDetails", "receiptId", "estimatedPublisherNetAmount", "estimatedAppchargeFee", "paymentMethod",
        ] {
            #expect(first[field] != nil, "\(field)")
        }
        #expect(first["createdAt"] as? String == "2024-06-12T00:00:01.000Z")
        let refunded = try Reports.ordersQuery(
            Array(#"{"startDate":"2024-06-12","endDate":"2024-06-12","statuses":["payment_refunded"]}"#.utf8))
        #expect(String(decoding: Reports.orders(sessions, refunded), as: UTF8.self).contains(#""totalCount":1,"#))
        let paged = try Reports.ordersQuery(
            Array(#"{"startDate":"2024-06-12","endDate":"2024-06-12","recordLimit":1,"offset":1}"#.utf8))
        let page = try #require(
            try JSONSerialization.jsonObject(with: Data(Reports.orders(sessions, paged))) as? [String: Any])
        #expect((page["results"] as? [[String: Any]])?.map { $0["state"] as? String } == ["payment_refunded"])
        #expect(page["totalCount"] as? Int == 3)
        let other = try Reports.ordersQuery(Array(#"{"startDate":"2024-06-13","endDate":"2024-06-14"}"#.utf8))
        #expect(String(decoding: Reports.orders(sessions, other), as: UTF8.self) == #"{"totalCount":0,"results":[]}"#)
    }

    @Test("an orders query that is wrong says every reason")
    func badOrdersQuery() {
        do {
            _ = try Reports.ordersQuery(Array(#"{"startDate":"June","recordLimit":0,"statuses":["spent"],"x":1}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.reasons.count == 5, "\(error.reasons)")
            #expect(
                error.reasons.contains(
                    "startDate 'June' is not an ISO 8601 date in UTC, such as 2024-06-12 or 2024-06-12T08:00:00Z"))
            #expect(error.reasons.contains { $0.hasPrefix("endDate is required") })
            #expect(error.reasons.contains("recordLimit must be a whole number from 1 to 1000, not '0'"))
            #expect(error.reasons.contains { $0.hasPrefix("statuses[0] 'spent' is not an order state; states: ") })
            #expect(error.reasons.contains { $0.hasPrefix("x is not a field of the orders report") })
        }
    }

    @Test("the transactions: payments, a refund's amount, a dispute's funds withdrawn and reinstated, in pages")
    func transactions() throws {
        let sessions = try Self.store().all
        func page(_ text: String) throws -> [String: Any] {
            let pairs = text.split(separator: "&").map { part in
                let halves = part.split(separator: "=", maxSplits: 1)
                return (name: String(halves[0]), value: halves.count > 1 ? String(halves[1]) : "")
            }
            let query = try Reports.transactionsQuery(pairs)
            return try #require(
                try JSONSerialization.jsonObject(with: Data(Reports.transactions(sessions, query, query: text)))
                    as? [String: Any])
        }
        func types(_ answer: [String: Any]) -> [String] {
            (answer["results"] as? [[String: Any]] ?? []).compactMap {
                ($0["transactionDetails"] as? [String: Any])?["type"] as? String
            }
        }
        let all = try page("startDate=2024-06-12&endDate=2024-06-12&limit=100")
        #expect(all["totalCount"] as? Int == 6)
        #expect(
            types(all) == ["paid", "paid", "paid", "refund", "dispute_funds_withdrawn", "dispute_funds_reinstated"])
        let refund = (all["results"] as? [[String: Any]])?[3]["transactionDetails"] as? [String: Any]
        // 100 of the price of 499, with its share of the US sales tax: 543 paid × 100 / 499, back.
        #expect(refund?["amount"] as? Int == -109)
        let first = try page("startDate=2024-06-12&endDate=2024-06-12&limit=4&sortDirection=desc")
        #expect(types(first) == ["dispute_funds_reinstated", "dispute_funds_withdrawn", "refund", "paid"])
        #expect(first["nextCursor"] as? String == "c_4")
        #expect(
            first["nextPageQuery"] as? String
                == "startDate=2024-06-12&endDate=2024-06-12&limit=4&sortDirection=desc&cursor=c_4")
        let second = try page("startDate=2024-06-12&endDate=2024-06-12&limit=4&sortDirection=desc&cursor=c_4")
        #expect(types(second) == ["paid", "paid"])
        #expect(second["nextCursor"] is NSNull)
        #expect(throws: Reports.Problem.self) {
            try Reports.transactionsQuery([("startDate", "2024-06-12"), ("endDate", "2024-06-11")])
        }
        #expect(throws: Reports.Problem.self) {
            try Reports.transactionsQuery([("startDate", "2024-06-12"), ("endDate", "2024-06-12"), ("limit", "10001")])
        }
    }

    @Test("a refused report query names the value sent, quoted, and a parameter given twice is refused")
    func reportRefusalsNameTheValue() {
        func transactions(_ pairs: [(String, String)]) -> [String] {
            do {
                _ = try Reports.transactionsQuery(pairs.map { (name: $0.0, value: $0.1) })
                return []
            } catch { return error.reasons }
        }
        func orders(_ body: String) -> [String] {
            do {
                _ = try Reports.ordersQuery(Array(body.utf8))
                return []
            } catch { return error.reasons }
        }
        let day = [("startDate", "2024-06-12"), ("endDate", "2024-06-12")]
        #expect(
            transactions(day + [("sortDirection", "up")]) == ["sortDirection must be asc or desc, not 'up'"])
        #expect(
            transactions(day + [("limit", "0")]) == ["limit must be a whole number from 1 to 10000, not '0'"])
        #expect(
            transactions([("startDate", "2024-06-13"), ("endDate", "2024-06-12")])
                == ["startDate '2024-06-13' is after endDate '2024-06-12'"])
        #expect(
            transactions(day + [("startDate", "2024-06-11")])
                == ["startDate is given twice; give each parameter once"])
        #expect(
            orders(#"{"startDate": "2024-06-12", "endDate": "2024-06-12", "recordLimit": 0}"#)
                == ["recordLimit must be a whole number from 1 to 1000, not '0'"])
        #expect(
            orders(#"{"startDate": "2024-06-12", "endDate": "2024-06-12", "recordLimit": "ten\u001b"}"#)
                == [#"recordLimit must be a whole number from 1 to 1000, not 'ten\u{1B}' (a string)"#])
    }

    @Test(
        "an orders report offset too large for Int is past every order, as Int.max is, and a recordLimit beyond Int is out of range"
    )
    func reportNumbersBeyondInt() throws {
        let day = #""startDate": "2024-06-12", "endDate": "2024-06-12""#
        for offset in ["9223372036854775807", "9223372036854775808", "1e999999999"] {
            let query = try Reports.ordersQuery(Array(#"{\#(day), "offset": \#(offset)}"#.utf8))
            #expect(query.offset == Int.max, "\(offset)")
        }
        for limit in ["1001", "9223372036854775808"] {
            #expect(throws: Reports.Problem.self) {
                try Reports.ordersQuery(Array(#"{\#(day), "recordLimit": \#(limit)}"#.utf8))
            }
            do {
                _ = try Reports.ordersQuery(Array(#"{\#(day), "recordLimit": \#(limit)}"#.utf8))
            } catch {
                #expect(error.reasons == ["recordLimit must be a whole number from 1 to 1000, not '\(limit)'"])
            }
        }
    }

    @Test("a page of either report stops at its bytes however long the names, and the next page goes on from there")
    func pagesBoundedInBytes() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 100, byteBudget: 256 << 20)
        let day = 1_718_150_400_000
        let name = String(repeating: "n", count: 1 << 20)
        for index in 0..<20 {
            let body = CheckoutSessionsTests.body.replacingOccurrences(of: "Starter Pack", with: name)
            let (session, _) = try sessions.create(try SessionRequest(Array(body.utf8)), now: day + index)
            _ = sessions.choose(.pay, paymentMethod: "Visa", for: session, now: day + index)
            _ = sessions.awardDelivered(purchaseId: session.purchaseId, failureData: nil)
        }
        let all = sessions.all
        var seen = 0
        var cursor = ""
        repeat {
            let text = "startDate=2024-06-12&endDate=2024-06-12&limit=100" + cursor
            let pairs = text.split(separator: "&").map { part in
                let halves = part.split(separator: "=", maxSplits: 1)
                return (name: String(halves[0]), value: String(halves[1]))
            }
            let bytes = Reports.transactions(all, try Reports.transactionsQuery(pairs), query: text)
            #expect(bytes.count <= Reports.pageBytes + (2 << 20), "\(bytes.count) bytes")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let results = page["results"] as? [[String: Any]] ?? []
            #expect(!results.isEmpty)
            seen += results.count
            cursor = (page["nextCursor"] as? String).map { "&cursor=" + $0 } ?? ""
        } while !cursor.isEmpty && seen < 20
        #expect(seen == 20, "every transaction on some page")
        var offset = 0
        while offset < 20 {
            let query = try Reports.ordersQuery(
                Array(#"{"startDate":"2024-06-12","endDate":"2024-06-12","recordLimit":100,"offset":\#(offset)}"#.utf8))
            let bytes = Reports.orders(all, query)
            #expect(bytes.count <= Reports.pageBytes + (2 << 20), "\(bytes.count) bytes")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(page["totalCount"] as? Int == 20)
            let results = page["results"] as? [[String: Any]] ?? []
            #expect(!results.isEmpty && results.count < 20)
            offset += results.count
        }
    }

    @Test("the delivery history: newest first, filtered, in pages, bounded, and each delivery's JSON read back")
    func history() throws {
        var history = DeliveryHistory(limit: 5)
        for index in 0..<8 {
            var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [("signature", "t=1,v1=ab")])
            attempt.status = index % 2 == 0 ? 200 : 500
            if index % 2 == 1 { attempt.failure = "the server answered 500" }
            attempt.responseHeaders = [("Content-Length", "2")]
            attempt.responseBody = Array("{}".utf8)
            history.add(
                kind: index % 3 == 0 ? .award : .event, purchaseId: "pr_\(index % 2)", name: "order.created",
                url: "http://127.0.0.1:1/events", body: Array(#"{"a":1}"#.utf8), attempts: [attempt])
        }
        #expect(history.deliveries.map(\.id) == ["dl_4", "dl_5", "dl_6", "dl_7", "dl_8"], "the oldest forgotten")
        let (newest, next) = history.page(.init(), limit: 2)
        #expect(newest.map(\.id) == ["dl_8", "dl_7"])
        #expect(next == 7)
        #expect(history.page(.init(), limit: 2, before: 7).deliveries.map(\.id) == ["dl_6", "dl_5"])
        #expect(history.page(.init(failedOnly: true), limit: 10).deliveries.map(\.id) == ["dl_8", "dl_6", "dl_4"])
        #expect(
            history.page(.init(purchaseId: "pr_1", kind: .event), limit: 10).deliveries.map(\.id) == ["dl_8", "dl_6"])
        let delivery = try #require(history.delivery(id: "dl_7"))
        let copy = try DeliveryHistory.Delivery(json: try JSONParser.parse(delivery.json))
        #expect(copy.json == delivery.json)
        #expect(history.delivery(id: "dl_1") == nil)
        #expect(history.delivery(id: "7") == nil)
    }
}
