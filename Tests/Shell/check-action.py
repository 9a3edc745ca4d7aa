#!/usr/bin/env python3
"""The composite action (action.yml), its steps run as a GitHub runner runs them.

Each `run:` step goes to `bash --noprofile --norc -eo pipefail` with the runner's files
(GITHUB_OUTPUT, GITHUB_PATH) and variables (RUNNER_TEMP, GITHUB_ACTION_PATH, ...); its
`if:` and the `${{ }}` expressions it uses are evaluated from the inputs, the step outputs
and the `github` and `runner` contexts. A `uses:` step (the build's cache) is left out:
it only saves time. The inputs are those the example workflow gives the action, so what
the README shows is what is checked:

- a release: the tarball of `make dist`, from a local server in the layout of GitHub's
  releases, checked against its SHA256SUMS, runs the shipped scenarios with both reports,
  and starts a sandbox whose URL answers `paylinks health`;
- a tarball whose SHA256SUMS does not match, and a version that is not one, fail the step;
- from source: `make install` in the action's directory, then the scenarios.

Usage: check-action.py DIST_DIRECTORY   (holding the tarball and SHA256SUMS of make dist)
"""

import http.server
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ACTION = os.path.join(ROOT, "action.yml")
WORKFLOW = os.path.join(ROOT, "Examples", "ci", "paylinks-scenarios.yml")
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
# What a step may take: a build from source compiles for minutes on a cold machine.
STEP_SECONDS = 1800


def fail(message):
    sys.exit("FAIL: " + message)


class Runner:
    """One job's run of the action: its temporary directory, PATH and step outputs."""

    def __init__(self, workspace, inputs):
        self.workspace = workspace
        self.temp = tempfile.mkdtemp(prefix="runner-temp-")
        self.paths = []
        self.outputs = {}
        action = yaml.safe_load(open(ACTION))
        self.action = action
        declared = action["inputs"]
        unknown = set(inputs) - set(declared)
        if unknown:
            fail("the workflow gives the action inputs it does not declare: %s" % ", ".join(sorted(unknown)))
        self.inputs = {name: str(spec.get("default", "")) for name, spec in declared.items()}
        self.inputs.update({name: str(value) for name, value in inputs.items()})

    def value(self, expression):
        """The value of a `${{ }}` expression's inside: a context's member, or a literal."""
        expression = expression.strip()
        if expression.startswith("'") and expression.endswith("'"):
            return expression[1:-1]
        parts = expression.split(".")
        if parts[0] == "inputs":
            return self.inputs[parts[1]]
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        if expression == "github.action_path":
            return ROOT
        if expression == "github.action_repository":
            return "your-studio/paylinks"
        if expression in ("runner.os", "runner.arch"):
            return {"runner.os": "Linux", "runner.arch": "X64"}[expression]
        fail("the action uses an expression this check does not know: %s" % expression)

    def condition(self, text):
        """Whether an `if:` of the forms the action uses holds: A == B, A != B, or A."""
        text = EXPRESSION.sub(lambda m: m.group(1), str(text)).strip()
        for operator in ("==", "!="):
            if operator in text:
                left, right = (self.value(side) for side in text.split(operator, 1))
                return (left == right) == (operator == "==")
        return self.value(text) not in ("", "false", "0")

    def substitute(self, text):
        return EXPRESSION.sub(lambda m: self.value(m.group(1)), str(text))

    def run(self):
        """Runs the steps in order; the exit status of the first that fails, else 0, and
        what the steps printed."""
        printed = []
        for index, step in enumerate(self.action["runs"]["steps"]):
            if "if" in step and not self.condition(step["if"]):
                continue
            if "uses" in step:
                continue
            output = os.path.join(self.temp, "output-%d" % index)
            path_file = os.path.join(self.temp, "path-%d" % index)
            open(output, "w").close()
            open(path_file, "w").close()
            env = dict(os.environ)
            env.update({
                "PATH": os.pathsep.join(list(reversed(self.paths)) + ["/usr/bin", "/bin", "/usr/local/bin"]),
                "GITHUB_ACTION_PATH": ROOT,
                "GITHUB_WORKSPACE": self.workspace,
                "GITHUB_OUTPUT": output,
                "GITHUB_PATH": path_file,
                "RUNNER_TEMP": self.temp,
                "RUNNER_OS": "Linux",
                "RUNNER_ARCH": "X64",
                "CI": "true",
                "GITHUB_ACTIONS": "true",
            })
            # Only a toolchain's swift on the PATH for a build from source: no paylinks.
            swift = shutil.which("swift")
            if swift:
                env["PATH"] += os.pathsep + os.path.dirname(os.path.realpath(swift))
            for name, value in (step.get("env") or {}).items():
                env[name] = self.substitute(value)
            script = self.substitute(step["run"])
            result = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                cwd=self.workspace, env=env, capture_output=True, text=True, timeout=STEP_SECONDS)
            printed.append(result.stdout + result.stderr)
            if result.returncode != 0:
                return result.returncode, "".join(printed)
            if "id" in step:
                self.outputs[step["id"]] = dict(
                    line.split("=", 1) for line in open(output).read().splitlines() if "=" in line)
            self.paths += [line for line in open(path_file).read().splitlines() if line]
        return 0, "".join(printed)

    def output(self, name):
        return self.substitute(self.action["outputs"][name]["value"])


class Releases(http.server.SimpleHTTPRequestHandler):
    """GitHub's releases on 127.0.0.1: v{version}/{file} from a directory."""

    def log_message(self, *args):
        pass


def serve_releases(directory):
    handler = lambda *args: Releases(*args, directory=directory)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def workflow_inputs():
    """What the example workflow gives the action in its scenarios job."""
    workflow = yaml.safe_load(open(WORKFLOW))
    for step in workflow["jobs"]["scenarios"]["steps"]:
        if str(step.get("uses", "")).startswith("your-studio/paylinks@"):
            return dict(step.get("with") or {})
    fail("the example workflow's scenarios job does not use the paylinks action")


def game_checkout():
    """A game's repository holding the shipped scenarios, as the workflow checks it out."""
    checkout = tempfile.mkdtemp(prefix="game-checkout-")
    shutil.copytree(os.path.join(ROOT, "Fixtures", "scenarios"), os.path.join(checkout, "scenarios"))
    return checkout


def stop_sandbox(runner):
    """Stops the sandbox a run started, as the runner's clean-up does, and waits for it."""
    pid = runner.outputs.get("sandbox", {}).get("pid")
    if not pid:
        fail("the sandbox step gave no pid output")
    os.kill(int(pid), signal.SIGTERM)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return
        # A poll with a bound: the process is not this script's child, so it cannot be waited on.
        time.sleep(0.05)
    fail("the sandbox did not stop within 20 s of SIGTERM")


def check_release(dist):
    tarballs = [name for name in os.listdir(dist) if name.endswith(".tar.gz")]
    if len(tarballs) != 1:
        fail("%s holds %d tarballs, not one" % (dist, len(tarballs)))
    inputs = workflow_inputs()
    version = inputs.get("version")
    if not version or version not in tarballs[0]:
        fail("the example workflow installs version %r, not the tarball's %s" % (version, tarballs[0]))
    releases = tempfile.mkdtemp(prefix="releases-")
    os.mkdir(os.path.join(releases, "v" + version))
    for name in tarballs + ["SHA256SUMS"]:
        shutil.copy(os.path.join(dist, name), os.path.join(releases, "v" + version, name))
    server = serve_releases(releases)
    url = "http://127.0.0.1:%d" % server.server_address[1]

    # As the workflow runs it, and with a sandbox started besides.
    checkout = game_checkout()
    runner = Runner(checkout, dict(inputs, **{"release-url": url, "start-sandbox": "true",
                                             "sandbox-arguments": "--clock virtual --seed 1"}))
    status, printed = runner.run()
    try:
        if status != 0:
            fail("the action's release run exited %d:\n%s" % (status, printed))
        for report in ("paylinks-junit.xml", "paylinks-report.json"):
            if not os.path.getsize(os.path.join(checkout, report)):
                fail("the scenarios wrote no %s" % report)
        sandbox = runner.output("sandbox-url")
        if not re.fullmatch(r"http://127\.0\.0\.1:\d+", sandbox):
            fail("the sandbox-url output is %r" % sandbox)
        with urllib.request.urlopen(sandbox + "/control/v1/health", timeout=5) as answer:
            health = answer.read().decode()
        if '"mode":"virtual"' not in health:
            fail("the sandbox did not take sandbox-arguments: its health is %s" % health)
        if not os.path.isfile(runner.output("sandbox-log")):
            fail("the sandbox-log output names no file")
    finally:
        if runner.outputs.get("sandbox"):
            stop_sandbox(runner)
    if "paylinks sandbox stopped" not in open(runner.output("sandbox-log")).read():
        fail("the sandbox's log does not end with its stop")

    # A tarball that is not the one SHA256SUMS names fails the step, and nothing is installed.
    with open(os.path.join(releases, "v" + version, tarballs[0]), "ab") as tarball:
        tarball.write(b"\0")
    runner = Runner(game_checkout(), dict(inputs, **{"release-url": url}))
    status, printed = runner.run()
    if status == 0 or "FAILED" not in printed:
        fail("a tarball that does not match SHA256SUMS was installed:\n%s" % printed)

    # A version that is not one fails at once.
    runner = Runner(game_checkout(), dict(inputs, **{"release-url": url, "version": "1.0; touch pwned"}))
    status, printed = runner.run()
    if status == 0 or "is not a paylinks version" not in printed:
        fail("a version that is not one was taken:\n%s" % printed)
    server.shutdown()
    print("action, release: ok (scenarios with both reports, a sandbox on %s, a bad checksum and a bad "
          "version refused)" % sandbox)


def check_source():
    inputs = workflow_inputs()
    inputs.pop("version", None)
    checkout = game_checkout()
    runner = Runner(checkout, inputs)
    status, printed = runner.run()
    if status != 0:
        fail("the action's build from source exited %d:\n%s" % (status, printed))
    if not os.path.getsize(os.path.join(checkout, "paylinks-junit.xml")):
        fail("the scenarios built from source wrote no JUnit report")
    if not any(os.path.isfile(os.path.join(path, "paylinks")) for path in runner.paths):
        fail("the build from source put no paylinks on the PATH")
    print("action, from source: ok")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-action.py DIST_DIRECTORY")
    check_release(os.path.abspath(sys.argv[1]))
    check_source()


if __name__ == "__main__":
    main()
