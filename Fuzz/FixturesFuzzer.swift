// libFuzzer target: fixture files. The input is tried as each fixture file; a catalog
// that loads is then used the way a run uses it, by an SDK of one of the generations.

import PaylinksKit

@testable import PaylinksCommandLine
@testable import PaylinksFixtures

/// libFuzzer's entry point: one input, tried as each fixture file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFixtures(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for file in FixtureFile.allCases {
        let source = FixtureSource(name: file.rawValue, bytes: bytes)
        let catalog: Catalog
        do {
            catalog = try CatalogLoader.load(
                offers: file == .offers ? source : nil, pricePoints: file == .pricePoints ? source : nil,
                statusCodes: file == .statusCodes ? source : nil, g1StatusCodes: file == .g1StatusCodes ? source : nil,
                g3StatusCodes: file == .g3StatusCodes ? source : nil)
        } catch {
            _ = error.description
            continue
        }
        // libFuzzer calls on the main thread, where the simulator lives.
        MainActor.assumeIsolated { exercise(catalog, as: targets[size % targets.count], size: size) }
    }
    return 0
}

/// An SDK of each generation; each input is used by one of them, chosen by its length, so
/// that every generation meets every kind of input at a third of the cost.
private let targets =
    [SDKTarget.standard] + ["2.3", "3.0"].compactMap({ try? SDKTarget(platform: .unity, version: $0) })

/// Runs every offer through a purchase in two countries, and a failure of each code, as
/// `target`'s generation sees the catalog, and renders it all.
@MainActor
private func exercise(_ full: Catalog, as target: SDKTarget, size: Int) {
    let catalog = full.forGeneration(target.generation)
    let delegate = RecordingDelegate()
    // Every offer is bought in one localized country, chosen by the input's length, and in
    // one that falls back to the US prices; failures do not depend on the country, so they
    // are played in the first only.
    let localized = catalog.localizations.keys.sorted()
    let countries = (localized.isEmpty ? [] : [localized[size / 3 % localized.count]]) + ["NZ"]
    for (index, country) in countries.enumerated() {
        let sdk = PaymentLinksSimulator(catalog: catalog, country: country, now: 0, seed: 1, target: target)
        sdk.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "c",
            delegate: delegate)
        sdk.getPricePoints()
        for offer in catalog.offers {
            try? sdk.runCheckout(
                offerSku: offer.sku, customerId: "c", environment: "sandbox", player: .pay(paymentMethodName: "Visa"),
                deliverTwice: false)
        }
        guard index == 0 else { continue }
        for code in catalog.statusCodes where code.steps.contains(.purchase) {
            guard let offer = catalog.offers.first else { break }
            sdk.injectFailure(code: code.code, at: .purchase)
            try? sdk.runCheckout(
                offerSku: offer.sku, customerId: "c", environment: "sandbox", player: .closeCheckout(),
                deliverTwice: true)
        }
    }
    for format in OutputFormat.allCases {
        let renderer = format.renderer(catalog: catalog, target: target)
        for callback in delegate.callbacks { _ = renderer.render(callback) }
        _ = CatalogListing.statusCodes(catalog, format: format)
        _ = CatalogListing.offers(catalog, country: "JP", format: format)
    }
}
