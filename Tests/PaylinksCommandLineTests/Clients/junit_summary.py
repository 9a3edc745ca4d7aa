"""Reads a JUnit XML report with junitparser, the library CI dashboards' tooling uses,
and prints what it understood as one JSON object: each suite with its cases, and each
case's result (passed, failure with its message and text, or skipped).

    python3 junit_summary.py REPORT.xml
"""

import json
import sys

from junitparser import Failure, JUnitXml, Skipped


def main():
    report = JUnitXml.fromfile(sys.argv[1])
    suites = []
    for suite in report:
        cases = []
        for case in suite:
            results = []
            for result in case.result:
                if isinstance(result, Failure):
                    results.append({"kind": "failure", "message": result.message, "text": result.text})
                elif isinstance(result, Skipped):
                    results.append({"kind": "skipped"})
            cases.append({"name": case.name, "classname": case.classname, "time": case.time, "results": results})
        suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures,
                       "skipped": suite.skipped, "cases": cases})
    print(json.dumps({"tests": report.tests, "failures": report.failures, "skipped": report.skipped,
                      "suites": suites}))


if __name__ == "__main__":
    main()
