/// Turns one callback into the text written for it.
///
/// A renderer returns whole lines, ending in a newline, so the caller can write each
/// callback in one piece and never leave half of one behind.
public protocol CallbackRenderer {
    /// The text for one callback.
    func render(_ callback: Callback) -> String
}

/// The output formats, and the renderer of each.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Human-readable blocks, one per callback.
    case text
    /// One compact JSON object per callback per line (NDJSON).
    case json

    /// The renderer for this format; `catalog` names status codes in text output.
    public func renderer(catalog: Catalog) -> any CallbackRenderer {
        switch self {
        case .text: TextRenderer(catalog: catalog)
        case .json: JSONLinesRenderer()
        }
    }
}
