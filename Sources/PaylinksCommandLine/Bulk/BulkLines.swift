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
