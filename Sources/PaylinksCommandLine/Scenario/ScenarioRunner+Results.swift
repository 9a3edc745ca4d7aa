package import PaylinksAppcharge
import PaylinksFixtures
package import PaylinksJSON
import PaylinksKit

extension ScenarioRunner {
    /// What one scenario came to.
    package struct ScenarioResult: Equatable, Sendable {
        /// One expectation that did not hold.
        package struct Mismatch: Equatable, Sendable {
            /// `3` or `3.2`.
            package var step: String
            /// The step's kind: `purchase`.
            package var kind: String
            /// What was expected and what came.
            package var message: String
            /// Where the expectation that did not hold stands in the file.
            package var position: TextPosition?

            /// `step 3 (purchase): what was expected and what came`; for a problem of a file
            /// that did not load (no step), the problem alone.
            package var summary: String {
                step.isEmpty ? message : "step \(step) (\(kind)): \(message)"
            }
        }

        /// The scenario's name.
        package var name: String
        /// The file it came from.
        package var file: String
        /// The combination of `--matrix` it ran in, `platform=ios`; nil without a matrix.
        package var combination: String?
        /// Steps run.
        package var steps = 0
        /// Attempts run.
        package var attempts = 0
        /// Expectation checks that held.
        package var met = 0
        /// How long the scenario took on the simulated clock, in milliseconds.
        package var milliseconds = 0
        /// How long running it took on the wall clock, in milliseconds: the JUnit report's time.
        package var wallMilliseconds = 0
        /// The expectations that did not hold, in order.
        package var mismatches: [Mismatch] = []
        /// The exit code the scenario's last callback means, as for one command.
        package var finalExit: ExitCode?
        /// The first difference between the game's ledger and Appcharge's books, when the
        /// run reconciles them; the scenario stops there.
        package var finding: BooksFinding?
        /// Appcharge's books of the scenario's orders, when the run read the game's ledger.
        package var books: PlayerBooks?

        /// Whether every expectation held.
        package var passed: Bool { mismatches.isEmpty }

        /// `ok    retries  3 steps`, or `FAIL  switch-player  step 3: ...`: the same however
        /// the run's scenarios are shared among processes.
        package var line: String {
            guard let first = mismatches.first else {
                let counted =
                    steps == attempts
                    ? Summary.count(steps, "step")
                    : "\(Summary.count(steps, "step")), \(Summary.count(attempts, "attempt"))"
                return MessageText.oneLine("ok    \(name)  \(counted)")
            }
            let more = mismatches.count > 1 ? " (and \(mismatches.count - 1) more)" : ""
            return MessageText.oneLine("FAIL  \(name)  step \(first.step): \(first.message)\(more)")
        }
    }

    /// What a run came to.
    package struct Summary: Equatable, Sendable {
        /// Each scenario that ran, in order.
        package var results: [ScenarioResult] = []

        /// Steps run: a step of a file counts once, however many attempts it has.
        package var steps = 0
        /// Attempts run: each run of a step, so at least as many as steps.
        package var attempts = 0
        /// Expectation checks that held.
        package var met = 0
        /// Expectation checks that did not.
        package var failed = 0
        /// Whether the run's seed decided part of the output: a scenario without a seed of
        /// its own made a checkout (whose ids are seeded) or drew random faults.
        package var usedRunSeed = false
        /// Why the run stopped before its end, and what to do: the game's ledger could not
        /// be read.
        package var cannotRun: String?

        static func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
    }
}
