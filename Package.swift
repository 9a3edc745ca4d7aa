// swift-tools-version: 6.0
import PackageDescription

// The layers, each a target whose imports point one way, down this list:
//
//   PaylinksJSON         JSON values, the parser and the writer: what every layer reads and
//                        writes JSON with.
//   PaylinksKit          the simulated SDK: models, delegate, simulator, catalog values and
//                        the built-in catalog. Values and rules only: no libc, no files, no
//                        streams, no argv, no exit codes. The library an app's tests import.
//   PaylinksFixtures     bytes to values: JSON shape checking, fixture and scenario loading.
//   PaylinksAppcharge    Appcharge's side of a purchase, as values and rules: the Create
//                        Checkout Session request, the Grant Award body and its signature
//                        (SHA-256, HMAC), an award attempt and what its answer means, the
//                        retry loop and schedule, the credentials and their precedence, the
//                        audits' cases and their verdicts. No sockets, no files.
//   PaylinksHTTP         transport: HTTP's values (HTTPTypes.swift), the parsers, the client,
//                        the server, sockets, threads, clocks and locks. It imports no other module
//                        of the project (LayerTests reads its imports): what the server
//                        answers on its own is worded by its user, the sandbox's JSON problems.
//   PaylinksDelivery     Appcharge's requests to the game's server, on the wire: awards and
//                        events signed and sent (one at a time, queued, or in loads over
//                        several connections), replays, a simulated payment's award and its
//                        order's events (shown through a display the command line renders), and
//                        the audits of an award or events endpoint. It imports JSON, the core,
//                        Appcharge's side and HTTP.
//   PaylinksSandbox      the game's server's requests to Appcharge, answered locally: the
//                        sandbox's routes (the checkout session, reporting, refund and control
//                        APIs, onto Appcharge's values), its pages, and the guard every request
//                        passes; and the service a server runs it as, which hands its awards,
//                        events and replays to PaylinksDelivery's queues, keeps its changes in
//                        a journal it is given and says what happens to a log it is given. It
//                        imports JSON, the core, the fixtures' message text, Appcharge's side,
//                        HTTP and the deliveries; the command line serves it.
//   PaylinksCommandLine  argv, one file per command, the checkout flow and the bulk paths,
//                        rendering, help, completions, the man page, output and exit codes;
//                        nothing public (main.swift reaches it with package access).
//   paylinks             main.swift alone.
//
// What touches the C library is named in LayerTests, and nothing else imports it: the
// command line's System.swift and ChildProcess.swift, and the HTTP layer's Socket.swift, Listener.swift,
// Clock.swift, Lock.swift (the one lock every module shares state under), Threads.swift and
// HTTPFields.swift (its memchr).
//
// The core never sees HTTP: the simulator's awardGranter is one closure PaylinksDelivery
// sets (grantAwards), into Appcharge's side, with its sender over HTTP as the transport.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// On x86-64, Appcharge's side hashes with the processor's SHA instructions where it has
// them, which it checks at run time (SHA256.swift). `-msha` lets that module's code name
// them; it brings in nothing past SSE2, which every x86-64 processor has, so the compiler
// emits them only where the code asks, behind the check. Elsewhere the portable code runs.
#if arch(x86_64)
    let hardwareHashing: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-msha"]), .define("PAYLINKS_SHA_INSTRUCTIONS")]
#else
    let hardwareHashing: [SwiftSetting] = []
#endif

let package = Package(
    name: "paylinks",
    products: [
        .executable(name: "paylinks", targets: ["paylinks"]),
        .library(name: "PaylinksKit", targets: ["PaylinksKit"]),
    ],
    targets: [
        // The fixtures in Fixtures/ are compiled into the core as Swift values
        // (Catalog/BuiltInCatalog.swift, written by `make catalog` and checked by a test),
        // so an installed paylinks needs nothing beside it and parses nothing at start.
        .target(name: "PaylinksJSON", swiftSettings: strict),
        .target(name: "PaylinksKit", dependencies: ["PaylinksJSON"], swiftSettings: strict),
        .target(name: "PaylinksFixtures", dependencies: ["PaylinksJSON", "PaylinksKit"], swiftSettings: strict),
        .target(
            name: "PaylinksAppcharge", dependencies: ["PaylinksJSON", "PaylinksKit"],
            swiftSettings: strict + hardwareHashing),
        .target(name: "PaylinksHTTP", swiftSettings: strict),
        .target(
            name: "PaylinksDelivery",
            dependencies: ["PaylinksJSON", "PaylinksKit", "PaylinksAppcharge", "PaylinksHTTP"],
            swiftSettings: strict),
        .target(
            name: "PaylinksSandbox",
            dependencies: [
                "PaylinksJSON", "PaylinksKit", "PaylinksFixtures", "PaylinksAppcharge", "PaylinksHTTP",
                "PaylinksDelivery",
            ],
            swiftSettings: strict),
        .target(
            name: "PaylinksCommandLine",
            dependencies: [
                "PaylinksJSON", "PaylinksKit", "PaylinksFixtures", "PaylinksAppcharge", "PaylinksHTTP",
                "PaylinksDelivery", "PaylinksSandbox",
            ],
            swiftSettings: strict),
        // startup-order.txt: the functions a start runs, which the release build lays out
        // together (the Makefile's RELEASEFLAGS, written by `make startup-order`).
        .executableTarget(
            name: "paylinks", dependencies: ["PaylinksCommandLine"], exclude: ["startup-order.txt"],
            swiftSettings: strict),

        // The generator of BuiltInCatalog.swift: a library the tests reach, and the program
        // `make catalog` runs.
        .target(name: "_GenerateCatalog", dependencies: ["PaylinksKit", "PaylinksFixtures"], swiftSettings: strict),
        .executableTarget(name: "generate-catalog", dependencies: ["_GenerateCatalog"], swiftSettings: strict),
        // The listing of the core's public API, API/PaylinksKit.txt, from the compiler's
        // symbol graph: written by `make api`, compared with the API by a test.
        .target(name: "_APIListing", swiftSettings: strict),
        .executableTarget(name: "api-listing", dependencies: ["_APIListing"], swiftSettings: strict),
        // A validator of exchanges against an OpenAPI document and its JSON schemas: what the
        // tests hold the sandbox to Schemas/sandbox.openapi.json with.
        .target(name: "_OpenAPIContract", dependencies: ["PaylinksJSON"], swiftSettings: strict),

        // One test target per layer, but for what runs on the transport: PaylinksHTTPTests tests
        // HTTP, the deliveries and the sandbox together, over the loopback servers they share.
        // The core's tests import only its public API.
        .testTarget(name: "PaylinksKitTests", dependencies: ["PaylinksKit", "_APIListing"]),
        // The sandbox's OpenAPI document as the tests that talk to the sandbox read it, and the
        // checks that make each way an exchange departs from it an issue of the test.
        .target(
            name: "ContractChecks", dependencies: ["PaylinksHTTP", "_OpenAPIContract"], path: "Tests/ContractChecks"),
        .testTarget(
            name: "PaylinksFixturesTests",
            dependencies: ["PaylinksJSON", "PaylinksKit", "PaylinksFixtures", "_GenerateCatalog"]),
        .testTarget(name: "PaylinksAppchargeTests", dependencies: ["PaylinksKit", "PaylinksAppcharge"]),
        .testTarget(name: "OpenAPIContractTests", dependencies: ["PaylinksJSON", "_OpenAPIContract"]),
        .testTarget(
            name: "PaylinksHTTPTests",
            dependencies: [
                "PaylinksJSON", "PaylinksKit", "PaylinksAppcharge", "PaylinksHTTP", "PaylinksDelivery",
                "PaylinksSandbox", "_OpenAPIContract", "ContractChecks",
            ],
            exclude: ["Servers"]),
        .testTarget(
            name: "PaylinksCommandLineTests",
            dependencies: [
                "PaylinksJSON", "PaylinksKit", "PaylinksFixtures", "PaylinksAppcharge", "PaylinksHTTP",
                "PaylinksDelivery", "PaylinksSandbox", "PaylinksCommandLine", "paylinks", "_OpenAPIContract",
                "ContractChecks",
            ],
            // Golden files are read through #filePath so that re-recording writes them in place;
            // Clients holds the real HTTP clients the sandbox is tested with; Fixtures, fixture
            // directories a test hands to --fixtures.
            exclude: ["Golden", "Clients", "Fixtures"]
        ),
    ]
)
