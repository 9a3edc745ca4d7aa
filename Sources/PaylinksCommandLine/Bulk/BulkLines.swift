import PaylinksKit

/// The lines of many checkouts alike, written from a template proven on two real ones:
/// a million checkouts in the time of a few, and the same bytes as if each had run.
struct BulkLines {
    let template: CheckoutLineTemplate
    let seed: UInt64

    /// Writes the checkouts of `indexes` in blocks of whole lines, after what `buffered`
    /// holds.
    func write(indexes: Range<Int>, after buffered: BufferedOutput, to sink: any OutputSink) throws(CLIError) {
        let blockSize = 1 << 16
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + template.lineLength)
        do {
            try buffered.flush()
            for index in indexes {
                template.append(seed: seed, index: index, to: &block)
                if block.count >= blockSize {
                    try sink.write(contentsOf: block)
                    block.removeAll(keepingCapacity: true)
                }
            }
            try sink.write(contentsOf: block)
        } catch {
            throw .output(error)
        }
    }
}

/// The callback lines of checkouts a load predicts rather than runs (each that proven
/// checkout under its own identifiers), filled in from a template instead of rendered:
/// the same bytes, a fraction of the work.
@MainActor
struct PredictedLines {
    private let template: CheckoutLineTemplate
    private let seed: UInt64
    private var line: [UInt8] = []

    /// The lines of the checkouts after `proven`, checkout `index` of a run seeded with
    /// `seed`, as `simulator` predicts them; nil when no template gives their exact bytes.
    init?(
        after proven: OrderResponseModel, index: Int, simulator: PaymentLinksSimulator, seed: UInt64,
        renderer: any CallbackRenderer
    ) {
        let next = Callback.onPurchaseSuccess(order: simulator.predictedOrder(like: proven))
        guard
            let template = CheckoutLineTemplate(
                renderer: renderer, result: .onPurchaseSuccess(order: proven), next: next, index: index, seed: seed)
        else { return nil }
        self.template = template
        self.seed = seed
    }

    /// Delivers `callback`, the result of predicted checkout `index`, through `delegate`
    /// as its line.
    mutating func deliver(_ callback: Callback, index: Int, to delegate: RenderingDelegate) {
        line.removeAll(keepingCapacity: true)
        // A predicted success holds its checkout's identifiers already.
        if case .onPurchaseSuccess(let order) = callback {
            template.append(order, to: &line)
        } else {
            template.append(seed: seed, index: index, to: &line)
        }
        delegate.receive(callback, line: line)
    }
}
