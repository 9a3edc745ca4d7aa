import PaylinksAppcharge
import PaylinksDelivery
import PaylinksKit

/// The deliveries after a payment as the command line shows them: each attempt rendered
/// and written through the delegate, in its place among the callbacks, under the current
/// step's tag.
@MainActor
struct RenderedDeliveries: DeliveryDisplay {
    let renderer: any CallbackRenderer
    let delegate: RenderingDelegate

    /// Writes an award attempt as the renderer shows it.
    func show(award attempt: DeliveryAttempt, url: String) {
        delegate.write(renderer.render(award: attempt, url: url, tag: delegate.currentTag))
    }

    /// Writes an event attempt as the renderer shows it.
    func show(event: OrderEvent, attempt: DeliveryAttempt, url: String?) {
        delegate.write(renderer.render(event: event, attempt: attempt, url: url, tag: delegate.currentTag))
    }
}

extension EventOutlet {
    /// An outlet whose attempts `renderer` renders and `delegate` writes.
    convenience init(
        settings: EventSettings, renderer: any CallbackRenderer, delegate: RenderingDelegate, seed: UInt64,
        trace: ((String) -> Void)?, showsUnsent: Bool
    ) {
        self.init(
            settings: settings, display: RenderedDeliveries(renderer: renderer, delegate: delegate), seed: seed,
            trace: trace, showsUnsent: showsUnsent)
    }
}
