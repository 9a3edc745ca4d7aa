import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// What `serve --data` answered for is on the disk and reads back, whatever the disk, a
/// crash or a second sandbox does; and a 503 means nothing happened.
@Suite("The sandbox's promises", .serialized)
struct SandboxPromisesTests {
    typealias Data_ = SandboxDataTests

    /// Sets the largest file the process `pid` may write, in bytes (nil: no limit), as a
    /// full disk would: a write past it fails.
    static func limitFileSize(of pid: Int32, to bytes: Int?) throws {
        let prlimit = try #require(
            ["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "prlimit (util-linux) sets a file-size limit on the sandbox, as a full disk")
        let value = bytes.map(String.init) ?? "unlimited"
        let outcome = try runProgram(prlimit, ["--pid", String(pid), "--fsize=\(value):unlimited"])
        #expect(outcome.status == 0, "\(outcome.output)")
    }

    /// The state of `purchaseId` once its award has ended (up to 10 s): an award goes out
    /// after the start that sends it, and ends when the game's server answers.
    static func stateOnceDecided(_ port: Int, _ purchaseId: String) throws -> String? {
        let deadline = Date().addingTimeInterval(10)
        var state = try Data_.state(port, purchaseId)
        while state == "charge_pending" && Date() < deadline {
            // A poll with a bound: the state is read again until it changes or 10 s pass.
            usleep(20_000)
            state = try Data_.state(port, purchaseId)
        }
        return state
    }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    @Test(
        "on a full disk every change is 503 and none is made: no award, no half record; once there is room, all goes on"
    )
    func fullDisk() throws {
        let data = Data_.DataDirectory("full")
        let game = try ExampleGameServer()
        let sandbox = try SandboxProcess(["--data", data.path, "--award-url", game.url])
        let unpaid = try Data_.create(sandbox.port)
        let paidWithoutAward = try Data_.create(sandbox.port)
        let before = Self.size(data.journal)
        // Room for a few bytes, not a record: each append fails part of the way.
        try Self.limitFileSize(of: sandbox.process.processIdentifier, to: before + 40)
        let refused = try Data_.call(sandbox.port, .post, "/checkout/v1/session")
        #expect(refused.status == 503)
        #expect((refused.json["errorMessage"] as? String)?.contains("nothing changed") == true, "\(refused.json)")
        let payment = try Data_.call(
            sandbox.port, .post, "/control/v1/sessions/\(paidWithoutAward)/complete", #"{"choice":"pay"}"#)
        #expect(payment.status == 503)
        // Nothing happened: the session is open still, no award went, and the journal is as it was.
        #expect(try Data_.state(sandbox.port, paidWithoutAward) == "created")
        #expect(try game.grants().isEmpty)
        #expect(Self.size(data.journal) == before)
        // With room again, the same requests go through, and the journal reads back whole.
        try Self.limitFileSize(of: sandbox.process.processIdentifier, to: nil)
        let paid = try Data_.call(
            sandbox.port, .post, "/control/v1/sessions/\(paidWithoutAward)/complete", #"{"choice":"pay"}"#)
        #expect(paid.status == 200)
        let fresh = try Data_.create(sandbox.port)
        let stopped = sandbox.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("a change could not be kept, so it was not made"), "\(stopped.stderr)")
        let again = try SandboxProcess(["--data", data.path])
        #expect(!again.startLine.contains("cut short"), "\(again.startLine)")
        #expect(try Data_.state(again.port, unpaid) == "created")
        #expect(try Data_.state(again.port, fresh) == "created")
        #expect(try Data_.state(again.port, paidWithoutAward).map { $0.hasPrefix("charge_") } == true)
        #expect(again.stop().status == 0)
    }

    @Test("a payment on a full disk without an award endpoint is 503, not 200 and forgotten")
    func fullDiskWithoutAwardEndpoint() throws {
        let data = Data_.DataDirectory("full-granted")
        let sandbox = try SandboxProcess(["--data", data.path])
        let purchaseId = try Data_.create(sandbox.port)
        try Self.limitFileSize(of: sandbox.process.processIdentifier, to: Self.size(data.journal) + 40)
        let payment = try Data_.call(
            sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        #expect(payment.status == 503)
        #expect(try Data_.state(sandbox.port, purchaseId) == "created")
        let stopped = sandbox.stop(with: SIGKILL)
        #expect(!stopped.stdout.contains("onPurchaseSuccess"), "the client was told nothing: \(stopped.stdout)")
        let again = try SandboxProcess(["--data", data.path])
        #expect(try Data_.state(again.port, purchaseId) == "created")
        #expect(again.stop().status == 0)
    }

    @Test("an award under way at a crash is sent when the sandbox starts again, and its order ends as the answer says")
    func awardsResume() throws {
        let data = Data_.DataDirectory("resume")
        // An award endpoint that takes the award and never answers, until the test ends.
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let stuck = try EventReceiver { _, _ in
            _ = release.wait(timeout: .now() + 20)
            return 503
        }
        let first = try SandboxProcess(["--data", data.path, "--award-url", stuck.url])
        let purchaseId = try Data_.create(first.port)
        let payment = try Data_.call(
            first.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        #expect(payment.json["state"] as? String == "charge_pending")
        #expect(stuck.wait(for: 1), "the award reached the endpoint")
        _ = first.stop(with: SIGKILL)

        let game = try ExampleGameServer()
        let second = try SandboxProcess(["--data", data.path, "--award-url", game.url])
        #expect(try Self.stateOnceDecided(second.port, purchaseId) == "charge_succeed")
        #expect(try game.grants().count == 1)
        let stopped = second.stop()
        #expect(
            stopped.stderr.contains("award \(purchaseId): sent at this start (the sandbox stopped before it ended)"))
        #expect(stopped.stdout.contains("onPurchaseSuccess"))
    }

    @Test("an award a stop cuts short between its attempts leaves its order charge_pending, and goes at the next start")
    func stopCutsAwardShort() throws {
        let data = Data_.DataDirectory("cut-short")
        // An award endpoint that refuses: each attempt fails, and the next is 10 s away in real time.
        let refusing = try EventReceiver { _, _ in 503 }
        let first = try SandboxProcess(["--data", data.path, "--award-url", refusing.url, "--award-wait", "real"])
        let purchaseId = try Data_.create(first.port)
        _ = try Data_.call(first.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice":"pay"}"#)
        #expect(refusing.wait(for: 1), "the first attempt came")
        let stopped = first.stop()
        #expect(stopped.status == 0)
        #expect(
            stopped.stderr.contains(
                "award \(purchaseId): cut short by the stop after 1 of 3 attempts; the order stays charge_pending; "
                    + "it is sent when the sandbox next starts with this --data"), "\(stopped.stderr)")
        #expect(!stopped.stdout.contains("onPurchaseFailed"), "the client was not told the award failed")

        let game = try ExampleGameServer()
        let second = try SandboxProcess(["--data", data.path, "--award-url", game.url])
        #expect(try Self.stateOnceDecided(second.port, purchaseId) == "charge_succeed")
        #expect(second.stop().status == 0)
    }

    @Test("a second sandbox is refused the directory even when its lock file is gone")
    func lockedWithoutLockFile() throws {
        let data = Data_.DataDirectory("lockless")
        let first = try SandboxProcess(["--data", data.path])
        try? FileManager.default.removeItem(atPath: data.path + "/lock")
        let second = try BinaryTests.run(["serve", "--port", "0", "--data", data.path])
        #expect(second.status == ExitCode.unavailable.rawValue, "\(second.stderr)")
        #expect(first.stop().status == 0)
    }

    @Test("a sandbox whose directory is moved away goes on writing there, not into a new directory at the old path")
    func movedDirectory() throws {
        let data = Data_.DataDirectory("moved")
        let moved = data.path + "-moved"
        defer { try? FileManager.default.removeItem(atPath: moved) }
        let first = try SandboxProcess(["--data", data.path])
        try FileManager.default.moveItem(atPath: data.path, toPath: moved)
        let second = try SandboxProcess(["--data", data.path])
        // Its fourth session's id is one the first, which makes three, never hands out.
        var kept = ""
        for _ in 0..<4 { kept = try Data_.create(second.port) }
        #expect(second.stop().status == 0)
        // The first grows its journal past 1 MiB, which rewrites it: in its own directory.
        let name = String(repeating: "n", count: 700_000)
        let large = String(decoding: Data_.body, as: UTF8.self).replacingOccurrences(of: "Starter Pack", with: name)
        for _ in 0..<3 { #expect(try first.createSession(large).status == 201) }
        #expect(first.stop().status == 0)
        let third = try SandboxProcess(["--data", data.path])
        #expect(try Data_.state(third.port, kept) == "created", "the new directory's session is there")
        #expect(third.stop().status == 0)
    }

    @Test("the deepest sessionMetadata the sandbox accepts is kept and read back; one level deeper is refused")
    func deepMetadata() throws {
        let data = Data_.DataDirectory("deep")
        let first = try SandboxProcess(["--data", data.path])
        func body(depth: Int) -> String {
            let metadata = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            return String(decoding: Data_.body, as: UTF8.self).dropLast() + #","sessionMetadata":\#(metadata)}"#
        }
        let deepest = try first.createSession(body(depth: SessionRequest.metadataDepthLimit))
        #expect(deepest.status == 201)
        let deeper = try first.createSession(body(depth: SessionRequest.metadataDepthLimit + 1))
        #expect(deeper.status == 400)
        #expect(String(decoding: deeper.body, as: UTF8.self).contains("sessionMetadata nests 33 levels deep"))
        let purchaseId = try #require(
            (try JSONSerialization.jsonObject(with: Data(deepest.body)) as? [String: Any])?["purchaseId"] as? String)
        #expect(first.stop().status == 0)
        let second = try SandboxProcess(["--data", data.path])
        #expect(try Data_.state(second.port, purchaseId) == "created")
        #expect(second.stop().status == 0)
    }
}
