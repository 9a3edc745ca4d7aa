// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "paylinks",
    products: [
        .executable(name: "paylinks", targets: ["paylinks"]),
        .library(name: "PaylinksKit", targets: ["PaylinksKit"]),
    ],
    targets: [
        .target(
            name: "PaylinksKit",
            resources: [
                // The fixtures live at the top of the repository and are compiled into the
                // binary, so an installed paylinks needs nothing beside it.
                .embedInCode("../../Fixtures/offers.json"),
                .embedInCode("../../Fixtures/price-points.json"),
                .embedInCode("../../Fixtures/status-codes.json"),
            ]
        ),
        .executableTarget(name: "paylinks", dependencies: ["PaylinksKit"]),
        .testTarget(
            name: "PaylinksKitTests",
            dependencies: ["PaylinksKit"],
            // Golden files are read through #filePath so that re-recording writes them in place.
            exclude: ["Golden"]
        ),
    ]
)
