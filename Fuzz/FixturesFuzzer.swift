// libFuzzer target: fixture files. The input is read as one fixture file, chosen by its
// length as everything else here is, so that each kind of file meets every input the
// fuzzer makes, at a fifth of the cost; a catalog that loads is then used the way a run
// uses it, by an SDK of one of the generations.

import PaylinksKit

@testable import PaylinksCommandLine
@testable import PaylinksFixtures

/// libFuzzer's entry point: one input, read as one of the fixture files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFixtures(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let files = FixtureFile.allCases
    let file = files[files.index(files.startIndex, offsetBy: size / 11 % files.count)]
    let source = FixtureSource(name: file.rawValue, bytes: bytes)
    let catalog: Catalog
    do {
        catalog = try CatalogLoader.load(
            offers: file == .offers ? source : nil, pricePoints: file == .pricePoints ? source : nil,
            statusCodes: file == .statusCodes ? source : nil, g1StatusCodes: file == .g1StatusCodes ? source : nil,
            g3StatusCodes: file == .g3StatusCodes ? source : nil)
    } catch {
        _ = error.description
        return 0
    }
    // libFuzzer calls on the main thread, where the simulator lives.
    MainActor.assumeIsolated { exercise(catalog, as: targets[size % targets.count], size: size) }
    return 0
}

/// An SDK of each generation; each input is used by one of them, chosen by its length, so
/// that every generation meets every kind of input at a third of the cost.
private let targets =
    [SDKTarget.standard] + ["2.3", "3.0"].compactMap({ try? SDKTarget(platform: .unity, version: $0) })

/// Runs every offer through a purchase, and a failure of each code, as `target`'s generation
/// sees the catalog, and renders it all. The country and the output format are chosen by the
/// input's length, as the generation is, so that each meets every kind of input.
@MainActor
private func exercise(_ full: Catalog, as target: SDKTarget, size: Int) {
    let catalog = full.forGeneration(target.generation)
    let delegate = RecordingDelegate()
    // A localized country or one that falls back to the US prices.
    let countries = catalog.localizations.keys.sorted() + ["NZ"]
    let sdk = PaymentLinksSimulator(
        catalog: catalog, country: countries[size / 3 % countries.count], now: 0, seed: 1, target: target)
    sdk.initialize(
        configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "c",
        delegate: delegate)
    sdk.getPricePoints()
    for offer in catalog.offers {
        try? sdk.runCheckout(
            offerSku: offer.sku, customerId: "c", environment: "sandbox", player: .pay(paymentMethodName: "Visa"),
            deliverTwice: false)
    }
    for code in catalog.statusCodes where code.steps.contains(.purchase) {
        guard let offer = catalog.offers.first else { break }
        sdk.injectFailure(code: code.code, at: .purchase)
        try? sdk.runCheckout(
            offerSku: offer.sku, customerId: "c", environment: "sandbox", player: .closeCheckout(),
            deliverTwice: true)
    }
    let formats = Array(OutputFormat.allCases)
    let format = formats[size / 7 % formats.count]
    let renderer = format.renderer(catalog: catalog, target: target)
    for callback in delegate.callbacks { _ = renderer.render(callback) }
    _ = CatalogListing.statusCodes(catalog, format: format)
    _ = CatalogListing.offers(catalog, country: "JP", format: format)
}
