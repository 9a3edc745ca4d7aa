import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP

/// The reporting API's orders report and transactions, and the checkout API's Initiate
/// Refund: what the game's server calls with its publisher token after a purchase.
extension Sandbox {
    /// The orders report: its query checked now, its body written later from the sessions
    /// held now; 400 in the reporting API's shape.
    func ordersReport(_ request: HTTPRequest) -> HTTPAnswer {
        do throws(Reports.Problem) {
            let query = try Reports.ordersQuery(request.body)
            let held = sessions.held
            let publisherId = settings.projectId
            return Self.later { Reports.orders(held.all, query, publisherId: publisherId) }
        } catch {
            return .ready(Self.reportingError(400, "Bad Request", error.reasons, path: request.path))
        }
    }

    /// The financial transactions, from the query string, as the orders report is made.
    func transactions(_ request: HTTPRequest) -> HTTPAnswer {
        do throws(Reports.Problem) {
            let query = try Reports.transactionsQuery(Self.pairs(Array(request.query.utf8)))
            let held = sessions.held
            let text = request.query
            return Self.later { Reports.transactions(held.all, query, query: text) }
        } catch {
            return .ready(Self.reportingError(400, "Bad Request", error.reasons, path: request.path))
        }
    }

    /// Initiate Refund, as the game's server calls it: 201 `{}` and the refund goes
    /// through (`order.refunded` follows); 403, 404 and 422 in Appcharge's shapes. An
    /// `x-user-id` that is not the order's player is taken, as Appcharge does not say what
    /// it does then, and the log warns of it. So does a body, which the API does not take:
    /// an amount asked there refunds no less than the whole order.
    func initiateRefund(orderId: String, _ request: HTTPRequest) -> HTTPServerResponse {
        do throws(CheckoutSessions.LifeProblem) {
            let session = try act(OrderLife.refund(amount: nil, succeeds: true), on: orderId, byOrderId: true)
            let userId = request.header("x-user-id") ?? ""
            if let session, userId != session.customerId {
                say(
                    "warning: refund of order \(MessageText.sanitized(orderId)): its x-user-id, "
                        + "'\(MessageText.sanitized(userId))', is not the order's player, "
                        + "'\(MessageText.sanitized(session.customerId))'; the game's server likely sends the wrong "
                        + "id, and Appcharge may refuse the refund")
            }
            if session != nil, let asked = Self.ignoredRefundBody(request) {
                say(
                    "warning: refund of order \(MessageText.sanitized(orderId)): Initiate Refund takes no body, and "
                        + "Appcharge ignores \(asked): the whole order is refunded")
            }
        } catch {
            switch error {
            case .noOrder:
                return HTTPServerResponse(
                    status: 404, body: Array(#"{"message":"Order does not exist or cannot be found."}"#.utf8))
            case .refused(let refusal):
                refusalSaid = true
                say("refund of order \(orderId) refused: \(refusal.message)")
                return HTTPServerResponse(
                    status: 422, body: Array(#"{"message":"Failed to initiate a refund request"}"#.utf8))
            }
        }
        return HTTPServerResponse(status: 201, body: Array("{}".utf8))
    }

    /// What a body sent to Initiate Refund asked, which nothing reads: its first member,
    /// or its size when it is no JSON object; nil for none, blanks or `{}`.
    private static func ignoredRefundBody(_ request: HTTPRequest) -> String? {
        guard request.body.contains(where: { !" \t\r\n".utf8.contains($0) }) else { return nil }
        guard case .success(let members) = jsonObject(request) else { return "its \(request.body.count) bytes" }
        return members.first.map { "its '\(MessageText.sanitized($0.key))'" }
    }
}
