// libFuzzer target: scenario files. A scenario that loads is run in full, with faults.

import PaylinksKit

@testable import PaylinksCommandLine
@testable import PaylinksFixtures

/// libFuzzer's entry point: one input, read and run as a scenario.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarios(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let catalog = Catalog.builtIn
    guard let scenario = try? ScenarioLoader.load(FixtureSource(name: "fuzz.json", bytes: bytes), catalog: catalog)
    else { return 0 }
    // libFuzzer calls on the main thread, where the simulator lives.
    MainActor.assumeIsolated { run(scenario, catalog: catalog) }
    return 0
}

@MainActor
private func run(_ scenario: Scenario, catalog: Catalog) {
    for format in OutputFormat.allCases {
        let runner = ScenarioRunner(
            catalog: catalog,
            settings: ScenarioRunner.Settings(format: format, trace: true, seed: 1, now: 0, faultRate: 0.3),
            output: CapturedOutput(), diagnostics: CapturedOutput())
        _ = try? runner.run([scenario])
    }
}
