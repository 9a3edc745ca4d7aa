// libFuzzer target: command lines. The input is split at NUL bytes into arguments, which
// go through the parser and, when they ask for a small flow, through a whole in-process run.

import PaylinksKit

@testable import PaylinksCommandLine
@testable import PaylinksFixtures

/// libFuzzer's entry point: one input, split into a command line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments =
        ["paylinks"]
        + bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    guard case .run(let command, let options)? = try? ArgumentParser.parse(arguments) else { return 0 }
    // Files, directories and award endpoints named by the input are not the fuzzer's to
    // touch, and huge bulk runs only take time.
    guard Command.flows.contains(command), options.fixtures == nil, options.awardUrl == nil, options.count <= 20 else {
        return 0
    }
    let context = RunContext(
        environment: { _ in nil }, standardOutput: CapturedOutput(), standardError: CapturedOutput(), clock: { 0 },
        entropy: { 1 })
    // libFuzzer calls on the main thread, where the simulator lives.
    MainActor.assumeIsolated { _ = PaylinksCLI.run(arguments, context: context) }
    return 0
}
