import PaylinksKit

/// A delegate that renders each callback to an output as it arrives, tagged when a
/// scenario runs, and keeps the callbacks delivered since the last ``begin(_:)``.
final class RenderingDelegate: CallbackReceiver {
    private let renderer: any CallbackRenderer
    private let output: any OutputSink
    private var tag: CallbackTag?
    /// The callbacks delivered since the last `begin`, oldest first.
    private(set) var delivered: [Callback] = []
    /// The first write that failed; nothing more is written after it.
    private(set) var failure: OutputError?

    init(renderer: any CallbackRenderer, output: any OutputSink) {
        self.renderer = renderer
        self.output = output
    }

    /// The tag the current step's output carries.
    var currentTag: CallbackTag? { tag }

    /// Writes other output of the current step (an award attempt) in its place among
    /// the callbacks; nothing after a write failed.
    func write(_ text: String) {
        guard failure == nil else { return }
        do {
            try output.write(text)
        } catch {
            failure = error
        }
    }

    /// Starts a new step: later callbacks carry `tag`, and `delivered` starts empty.
    func begin(_ tag: CallbackTag?) {
        self.tag = tag
        delivered = []
    }

    func receive(_ callback: Callback) {
        delivered.append(callback)
        guard failure == nil else { return }
        do {
            try output.write(renderer.render(callback, tag: tag))
        } catch {
            failure = error
        }
    }

    /// Delivers `callback` as `line`: the bytes the renderer writes for it, filled in from
    /// a template proven on real checkouts (``CheckoutLineTemplate``) rather than rendered.
    func receive(_ callback: Callback, line: [UInt8]) {
        delivered.append(callback)
        guard failure == nil else { return }
        do {
            try output.write(contentsOf: line)
        } catch {
            failure = error
        }
    }
}
