// swift-tools-version: 6.0
// An app's own package that tests its store against paylinks' simulated SDK.
import PackageDescription

// A path dependency is known by its folder's name, whatever the checkout is called.
let paylinks = Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "paylinks"

let package = Package(
    name: "StoreTests",
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "Store", dependencies: [.product(name: "PaylinksKit", package: paylinks)]),
        .testTarget(name: "StoreTests", dependencies: ["Store", .product(name: "PaylinksKit", package: paylinks)]),
    ]
)
