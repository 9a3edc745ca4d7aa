// swift-tools-version: 6.0
// A game's own package: its store never imports paylinks; its tests put paylinks'
// simulated SDK behind the store's own payments seam.
import PackageDescription

// A path dependency is known by its folder's name, whatever the checkout is called.
let paylinks = Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "paylinks"

let package = Package(
    name: "StoreTests",
    dependencies: [.package(path: "../..")],
    targets: [
        // Production code: the store and its seam, with no dependency on the simulator.
        .target(name: "Store"),
        .testTarget(name: "StoreTests", dependencies: ["Store", .product(name: "PaylinksKit", package: paylinks)]),
    ]
)
