import Foundation
import Testing

@testable import PaylinksCommandLine

/// `--device` and a scenario's `device`: the V2 events' device object, as the command line
/// sends it.
@Suite("Device")
@MainActor
struct DeviceTests {
    /// The device objects of the events `receiver` got, each as its body writes it.
    static func devices(_ receiver: EventReceiver) -> [String] {
        receiver.received.map { request in
            let body = String(decoding: request.body, as: UTF8.self)
            guard let start = body.firstRange(of: #""device":"#)?.upperBound else { return "none" }
            return String(body[start...].prefix { $0 != "}" }) + "}"
        }
    }

    static let android =
        #"{"platform":"mobile","deviceModel":"Pixel 8","osType":"Android","osVersion":"14","browserType":"Chrome","browserVersion":"126.0.6478.122"}"#

    @Test("trigger --device puts that device on every V2 event; without it the seed picks one, and V1 has none")
    func option() throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.completed", "--events-url", receiver.url, "--device", "android"] + EventTests.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(Self.devices(receiver) == Array(repeating: Self.android, count: 3))
        let pairs = try EventReceiver()
        _ = runCLI(
            ["trigger", "order.created", "--events-url", pairs.url, "--device", "osType=iOS,osVersion=18.0"]
                + EventTests.seeded)
        #expect(Self.devices(pairs) == [#"{"osType":"iOS","osVersion":"18.0"}"#])
        let seeded = try EventReceiver()
        _ = runCLI(["trigger", "order.completed", "--events-url", seeded.url] + EventTests.seeded)
        #expect(Set(Self.devices(seeded)).count == 1)
        #expect(Self.devices(seeded).first?.hasPrefix(#"{"platform":"#) == true)
        let v1 = try EventReceiver()
        _ = runCLI(
            ["trigger", "order.completed", "--events-url", v1.url, "--events-version", "v1", "--device", "ios"]
                + EventTests.seeded)
        #expect(Self.devices(v1) == ["none", "none", "none"])
    }

    @Test(
        "a --device that is not a preset or KEY=VALUE pairs is one error line, exit 64, with a suggestion",
        arguments: [
            (
                "andriod",
                "error: --device takes ios, android, web or KEY=VALUE,... with keys platform, deviceModel, osType, "
                    + "osVersion, browserType, browserVersion, not 'andriod'; did you mean 'android'?"
            ),
            (
                "osTpye=iOS",
                "error: --device has no key 'osTpye'; keys: platform, deviceModel, osType, osVersion, browserType, "
                    + "browserVersion; did you mean 'osType'?"
            ),
            (
                "phone",
                "error: --device takes ios, android, web or KEY=VALUE,... with keys platform, deviceModel, osType, "
                    + "osVersion, browserType, browserVersion, not 'phone' (see 'paylinks purchase --help')"
            ),
        ])
    func badOption(value: String, line: String) {
        let result = runCLI("purchase", "--sku", "starter_pack_001", "--device", value)
        #expect(result.exitCode == .usage)
        #expect(result.stderr.hasPrefix(line), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("a scenario's device, a preset or an object, wins over --device; a wrong one names its path")
    func scenario() throws {
        let paths = try ScenarioTests.write([
            (
                "preset.json",
                #"{"configuration": {"device": "android"}, "steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#
            ),
            (
                "object.json",
                #"{"configuration": {"device": {"platform": "tablet", "osType": "iPadOS"}}, "steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#
            ),
        ])
        let receiver = try EventReceiver()
        let result = runCLI(["run", paths[0], "--events-url", receiver.url, "--device", "web", "--seed", "7"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(Set(Self.devices(receiver)) == [Self.android])
        let object = try EventReceiver()
        _ = runCLI(["run", paths[1], "--events-url", object.url, "--seed", "7"])
        #expect(Set(Self.devices(object)) == [#"{"platform":"tablet","osType":"iPadOS"}"#])
        let wrong = try ScenarioTests.write([
            ("wrong.json", #"{"configuration": {"device": {"osTpye": "iOS"}}, "steps": [{"step": "initialize"}]}"#)
        ])
        let refused = runCLI("run", wrong[0])
        #expect(refused.exitCode == .dataError, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(#"configuration.device.osTpye: unknown key "osTpye"; did you mean "osType"?"#),
            "\(refused.stderr)")
    }
}
