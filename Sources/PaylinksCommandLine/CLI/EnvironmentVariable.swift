/// Every environment variable paylinks reads: the code reads them through this type, and
/// the manual page and the help list them from it, so that neither can miss one.
package enum EnvironmentVariable: String, CaseIterable, Sendable {
    /// A fixture directory, as `--fixtures` gives one.
    case fixtures = "PAYLINKS_FIXTURES"
    /// The default of `--seed`.
    case seed = "PAYLINKS_SEED"
    /// The default of `--now`, by the reproducible-builds convention.
    case sourceDateEpoch = "SOURCE_DATE_EPOCH"
    /// The main key award callbacks are signed with.
    case mainKey = "PAYLINKS_MAIN_KEY"
    /// The publisher token of award callbacks and of the sandbox.
    case publisherToken = "PAYLINKS_PUBLISHER_TOKEN"
    /// `true` under GitHub Actions: `run` annotates failed expectations.
    case githubActions = "GITHUB_ACTIONS"
    /// Set and not empty: no colour.
    case noColor = "NO_COLOR"
    /// `dumb`: no colour.
    case term = "TERM"
    /// Set by `run --jobs` for the copies it starts.
    case runWorker = "PAYLINKS_RUN_WORKER"

    /// What it does, in a sentence, for the manual page.
    package var meaning: String {
        switch self {
        case .fixtures: "A directory of fixture files that replace the built-in ones, as --fixtures does."
        case .seed: "The seed when --seed is not given, for every command: a CI job replays the same bytes."
        case .sourceDateEpoch:
            "The clock, in Unix seconds, when --now is not given (for serve, where a virtual clock starts; on the "
                + "wall clock its sessions expire in real time)."
        case .mainKey:
            "The studio's main key that award callbacks are signed with, unless --main-key-file gives one; "
                + "else the documented demo key."
        case .publisherToken:
            "The publisher token award callbacks carry and the sandbox requires, unless --publisher-token gives one; "
                + "else the demo token."
        case .githubActions:
            "When true, run also writes each failed expectation and each problem of a file that does not load to "
                + "stderr as a GitHub Actions ::error annotation."
        case .noColor: "When set and not empty, text output is not coloured (unless --color always)."
        case .term: "When dumb, text output is not coloured (unless --color always)."
        case .runWorker: "Set by run --jobs in the copies of paylinks it starts; not for users to set."
        }
    }
}

extension RunContext {
    /// The value of `variable`, or nil when it is not set.
    func value(of variable: EnvironmentVariable) -> String? {
        environment(variable.rawValue)
    }

    /// The variable's value as a header or a log line may carry it: a value with a control
    /// character (a CR or LF would start another header) is refused as the same value on
    /// the command line is.
    func headerValue(of variable: EnvironmentVariable) throws(CLIError) -> String? {
        guard let value = value(of: variable) else { return nil }
        if let bad = value.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .usage(
                "\(variable.rawValue) contains the control character U+\(OptionSpec.hex(bad.value)); "
                    + "remove it from the value, or unset it", command: nil)
        }
        return value
    }
}
