import Foundation

/// Whether the tests run in CI (`CI=true`), where every tool they use is installed: a test
/// that would skip for a missing tool runs there, and fails.
let runningInCI = ProcessInfo.processInfo.environment["CI"] == "true"
