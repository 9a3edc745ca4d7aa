import PaylinksHTTP

extension SandboxRoute {
    /// Who may call a route, checked once for every row that declares it, as a server's
    /// middleware is, after the method and before the handler.
    enum Access: Sendable {
        /// Anyone the sandbox's guard let through.
        case open
        /// The game's server alone: a call carries the publisher token in
        /// `x-publisher-token`, and one without it is refused in the words of `api`.
        case publisherToken(PublisherAPI)

        /// The answer that refuses `request` when the sandbox's token is `publisherToken`;
        /// nil when it may be answered.
        func refusal(_ request: HTTPRequest, publisherToken: String) -> HTTPServerResponse? {
            guard case .publisherToken(let api) = self else { return nil }
            // Every copy of the header is the token sent: two that differ are not the token,
            // whichever comes first, as a proxy in front may keep either.
            var sent: String?
            var agreeing = true
            for header in request.headers where header.isNamed("x-publisher-token") {
                if let first = sent { agreeing = agreeing && first == header.value } else { sent = header.value }
            }
            let token = agreeing ? sent : nil
            if token == publisherToken && (!api.needsUserId || !(request.header("x-user-id") ?? "").isEmpty) {
                return nil
            }
            return api.refusal(request.path, sent == nil)
        }
    }

    /// An API of Appcharge's that the game's server calls with its publisher token, by how
    /// it refuses a call without the right one: each API words it its own way.
    struct PublisherAPI: Sendable {
        /// Whether a call must also name the player in a non-empty `x-user-id`.
        let needsUserId: Bool
        /// The answer to a call at `path` whose token is `missing`, or not the sandbox's.
        let refusal: @Sendable (_ path: String, _ missing: Bool) -> HTTPServerResponse

        /// Create Checkout Session and the reporting API: 401 in the reporting API's shape,
        /// saying whether the token is missing or invalid.
        static let reporting = PublisherAPI(needsUserId: false) { path, missing in
            Sandbox.unauthorized(path, missing ? "Publisher token is required." : "Publisher token is invalid.")
        }

        /// The Price Localization API: 401 `{"message":"Unauthorized"}`, the lookup's
        /// documented answer to a token missing or invalid (PL/error-messages), on all six
        /// of its endpoints.
        static let priceLocalization = PublisherAPI(needsUserId: false) { _, _ in
            Sandbox.message(401, "Unauthorized")
        }

        /// The checkout API's orders (Initiate Refund): 403 `Forbidden resource`, whatever
        /// was wrong, a missing `x-user-id` too.
        static let orders = PublisherAPI(needsUserId: true) { _, _ in
            HTTPServerResponse(
                status: 403, body: Array(#"{"result":null,"errCode":-1,"message":"Forbidden resource"}"#.utf8))
        }
    }
}
