import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON

/// The control API's deliveries: what was sent to the game's server, listed, one by one,
/// and sent again.
extension Sandbox {
    /// The largest page of deliveries one request gets.
    static let deliveryPageLimit = 100

    /// `GET /control/v1/deliveries?purchaseId=&kind=award|event&failed=true&limit=N&cursor=ID`:
    /// newest first, with `nextCursor` for the page after.
    func deliveries(_ request: HTTPRequest) -> HTTPAnswer {
        var filter = DeliveryHistory.Filter()
        var limit = 20
        var before: Int?
        for (name, value) in Self.form(Array(request.query.utf8)) {
            switch name {
            case "purchaseId": filter.purchaseId = value
            case "kind":
                guard let kind = DeliveryHistory.Kind(rawValue: value) else {
                    return .ready(Sandbox.problem(400, "kind is award or event"))
                }
                filter.kind = kind
            case "failed":
                guard value == "true" || value == "false" else {
                    return .ready(Sandbox.problem(400, "failed is true or false"))
                }
                filter.failedOnly = value == "true"
            case "limit":
                guard let number = Int(value), (1...Self.deliveryPageLimit).contains(number) else {
                    return .ready(Sandbox.problem(400, "limit is a number from 1 to \(Self.deliveryPageLimit)"))
                }
                limit = number
            case "cursor":
                guard value.hasPrefix("dl_"), let number = Int(value.dropFirst(3)) else {
                    return .ready(Sandbox.problem(400, "cursor is a nextCursor a listing gave, such as dl_20"))
                }
                before = number
            default:
                return .ready(
                    Sandbox.problem(
                        400, "the deliveries take purchaseId, kind, failed, limit and cursor, not \(name)"))
            }
        }
        let (page, more) = history.page(filter, limit: limit, before: before)
        return .later(HTTPServerResponse(status: 200, body: [])) {
            var body = Array(#"{"deliveries":["#.utf8)
            var next = more
            for (index, delivery) in page.enumerated() {
                // A page ends early rather than grow past its bytes; its cursor goes on from there.
                if index > 0 && body.count >= Reports.pageBytes {
                    next = page[index - 1].number
                    break
                }
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Self.shown(delivery).json
            }
            body += Array("],\"nextCursor\":".utf8) + Array((next.map { "\"dl_\($0)\"" } ?? "null").utf8) + [125]
            return body
        }
    }

    /// `GET /control/v1/deliveries/ID`: one delivery, as the listing shows it; 404 without it.
    func delivery(id: String) -> HTTPAnswer {
        guard let delivery = history.delivery(id: id) else {
            return .ready(
                Sandbox.problem(404, "no delivery has the id '\(id)'; GET /control/v1/deliveries lists them"))
        }
        return Self.later { Self.shown(delivery).json }
    }

    /// `delivery` as the control API and the order's page show it: the publisher token
    /// its requests carried masked, since whoever reads them (a page the developer opens
    /// among them) could send the game's server anything as Appcharge. The history, the
    /// journal and the replays keep the real value.
    static func shown(_ delivery: DeliveryHistory.Delivery) -> DeliveryHistory.Delivery {
        var shown = delivery
        for index in shown.attempts.indices {
            shown.attempts[index].headers = shown.attempts[index].headers.map { header in
                header.name.lowercased() == "x-publisher-token" ? (header.name, masked(header.value)) : header
            }
        }
        return shown
    }

    /// `{"resign": true}` (the default) or `{"resign": false}`: the delivery sent again.
    func replay(id: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let delivery = history.delivery(id: id) else {
            return Sandbox.problem(404, "no delivery has the id '\(id)'; GET /control/v1/deliveries lists them")
        }
        // No body and {} mean the defaults: newly signed.
        var resign = true
        if !request.body.isEmpty {
            let shape = #"send {} (newly signed), {"resign": true} or {"resign": false} (exactly), or no body"#
            let read = Self.jsonObject(request)
            guard case .success(let members) = read else { return read.refusal(shape) }
            for (key, value) in members {
                guard key == "resign" else {
                    return Sandbox.problem(
                        400, #"the replay takes only "resign", not "\#(key.prefix(40))"; \#(shape)"#)
                }
                guard case .bool(let flag) = value.kind else {
                    return Sandbox.problem(
                        400, "resign must be true or false, not \(value.typeDescription); \(shape)")
                }
                resign = flag
            }
        }
        guard onReplay != nil else {
            return Sandbox.problem(
                409, "the sandbox has nowhere to send it: start serve with --award-url or --events-url")
        }
        sendAgain(delivery, resign: resign)
        return HTTPServerResponse(
            status: 202,
            body: Array(#"{"replaying":"\#(delivery.id)","resign":\#(resign)}"#.utf8))
    }
}
