import PaylinksKit

/// The manual page, `paylinks.1`, written in roff from the same tables as the help.
package enum ManPage {
    /// The page's source.
    package static func roff() -> String {
        var page = """
            .TH PAYLINKS 1 "\(Help.releaseDate)" "paylinks \(Help.version)" "User Commands"
            .SH NAME
            paylinks \\- checkout simulator for Appcharge's Payment Links SDK
            .SH SYNOPSIS
            .B paylinks
            .I command
            .RI [ options ]
            .SH DESCRIPTION
            paylinks runs the lifecycle of the Payment Links SDK (G2 and iOS names unless
            .B --sdk-version
            and
            .B --platform
            say otherwise) against a store
            catalog and prints the callbacks an
            .B ACPaymentLinksDelegate
            would receive, with realistic payloads, as text or as one JSON object per line.
            Standard output carries only callbacks and the listings asked for; every diagnostic
            goes to standard error as one line starting with
            .BR error: .
            .SH COMMANDS

            """
        for command in Command.allCases {
            page += ".TP\n.B \(escape(command.usage))\n\(escape(command.summary))\n"
        }
        page += ".TP\n.B paylinks help \\fR[\\fIcommand\\fR]\nShow the help of a command.\n"
        page += ".SH OPTIONS\n"
        for spec in OptionSpec.all {
            let label =
                spec.placeholder.map { "\\fB\(escape(spec.name))\\fR \\fI\($0)\\fR" } ?? "\\fB\(escape(spec.name))\\fR"
            page += ".TP\n\(label)\n\(escape(spec.summary))"
            if let defaultText = spec.defaultText { page += " Default: \(escape(defaultText))." }
            page += " Commands: \(spec.commands.map(\.rawValue).joined(separator: ", ")).\n"
        }
        page += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the help.\n"
        page += ".TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nShow the version.\n"
        page += ".SH EXIT STATUS\n"
        for code in ExitCode.allCases {
            page += ".TP\n.B \(code.rawValue)\n\(escape(code.meaning))\n"
        }
        page += ".PP\n\(escape("serve -- CMD ends with CMD's own status, whatever it is."))\n"
        page += ".SH ENVIRONMENT\n"
        for variable in EnvironmentVariable.allCases {
            page += ".TP\n.B \(escape(variable.rawValue))\n\(escape(variable.meaning))\n"
        }
        page += ".SH EXAMPLES\n.nf\n"
        for example in Help.examples {
            page += escape(example.command) + "\n"
        }
        page += """
            .fi
            .SH SEE ALSO
            The README of paylinks, and the Payment Links SDK documentation.

            """
        return page
    }

    /// Text with roff's special characters escaped: backslashes, hyphens, and a period or
    /// apostrophe at the start of a line.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            default: result.append(character)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
