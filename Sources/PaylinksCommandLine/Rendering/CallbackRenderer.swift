package import PaylinksAppcharge
package import PaylinksKit

/// Turns one callback into the text written for it.
///
/// A renderer returns whole lines, ending in a newline, so the caller can write each
/// callback in one piece and never leave half of one behind.
package protocol CallbackRenderer {
    /// The text for one callback, tagged with where it came from when `tag` is given.
    func render(_ callback: Callback, tag: CallbackTag?) -> String

    /// The text for one attempt at delivering an order's award to the game's server.
    func render(award attempt: DeliveryAttempt, url: String, tag: CallbackTag?) -> String

    /// The text for one attempt at delivering an order's event to `url`, or, when `url`
    /// is nil, for the event as it would be sent: `attempt` then holds its headers only.
    func render(event: OrderEvent, attempt: DeliveryAttempt, url: String?, tag: CallbackTag?) -> String

    /// The text for what a game without the SDK receives when its checkout ends (Link
    /// Out): the browser sent to `url`, its return URL with `status` in the query.
    func render(redirect url: String, status: LinkOutStatus, tag: CallbackTag?) -> String
}

extension CallbackRenderer {
    /// The text for one callback, untagged.
    package func render(_ callback: Callback) -> String {
        render(callback, tag: nil)
    }
}

/// Where a callback came from in a scenario run: the scenario and the step.
package struct CallbackTag: Equatable, Sendable {
    /// The scenario's name.
    package var scenario: String
    /// The step's number in the scenario, from 1.
    package var step: Int
    /// The attempt's number, from 1, when the step repeats.
    package var attempt: Int?

    /// Creates a tag.
    package init(scenario: String, step: Int, attempt: Int? = nil) {
        self.scenario = scenario
        self.step = step
        self.attempt = attempt
    }
}

/// The output formats, and the renderer of each.
package enum OutputFormat: String, CaseIterable, Sendable {
    /// Human-readable blocks, one per callback.
    case text
    /// One compact JSON object per callback per line (NDJSON).
    case json
    /// Each callback as the platform hands it to the game: a Swift call, a Java method
    /// and its fields, or Unity's bridge message.
    case wire

    /// The renderer for this format; `catalog` names status codes in text output, which
    /// `color` colours. JSON is never coloured. Names and arguments are `target`'s.
    /// `language` is the iOS delegate's; it names nothing on another platform.
    package func renderer(
        catalog: Catalog, color: Bool = false, target: SDKTarget = .standard, language: DelegateLanguage = .swift
    ) -> any CallbackRenderer {
        let language = target.platform == .ios ? language : .swift
        return switch self {
        case .text: TextRenderer(catalog: catalog, style: color ? .ansi : .plain, target: target, language: language)
        case .json: JSONLinesRenderer(target: target)
        case .wire: WireRenderer(target: target, language: language)
        }
    }
}
