import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
package import PaylinksKit

/// Shell completion scripts, made from the same option table as the parser and the help,
/// with the SKUs, status codes and countries of the catalog in use.
package enum CompletionScript {
    /// The shells paylinks writes completions for.
    package enum Shell: String, CaseIterable, Sendable {
        /// GNU bash.
        case bash
        /// zsh.
        case zsh
        /// fish.
        case fish
    }

    /// What can follow an option that takes a value.
    enum Values: Equatable {
        /// One of these words.
        case words([String])
        /// A directory.
        case directories
        /// A file.
        case files
        /// Anything: nothing to suggest.
        case free
    }

    /// The values `option` takes after `command`, drawn from `catalog` where they come from
    /// fixtures: each command's own, where commands differ (the cases of `--case`, the
    /// formats of `--format`).
    static func values(of option: String, after command: Command, catalog: Catalog) -> Values {
        switch option {
        case "--sku": .words(catalog.offers.map(\.sku))
        case "--error": .words(catalog.statusCodes.flatMap { [String($0.code), $0.name] })
        case "--country": .words(countries(catalog))
        // Only the commands that print callbacks have a wire format.
        case "--format":
            .words(
                OutputFormat.allCases.filter { $0 != .wire || OptionSpec.callbackCommands.contains(command) }
                    .map(\.rawValue))
        case "--outcome": .words(ChargeOutcome.allCases.map(\.rawValue))
        case "--via": .words(CloseMethod.allCases.map(\.rawValue))
        case "--flow": .words(PaymentFlow.allCases.map(\.rawValue))
        case "--fail-at": .words(Step.allCases.map(\.rawValue))
        case "--color": .words(ColorChoice.allCases.map(\.rawValue))
        case "--platform": .words(Platform.allCases.map(\.rawValue))
        case "--browser-mode": .words(BrowserMode.allCases.map(\.rawValue))
        case "--sdk-version": .words(["1.5.1", "1.7", "1.9", "2.0.0", "1.4", "1.6", "2.0", "2.4", "2.5", "2.6", "3.0"])
        case "--environment", "--session-environment": .words(["sandbox", "production"])
        case "--award-wait", "--events-wait": .words(AwardWait.allCases.map(\.rawValue))
        case "--events-version": .words(OrderEvent.Version.allCases.map(\.rawValue))
        case "--result": .words(["success", "failed", "won", "lost"])
        case "--language": .words(DelegateLanguage.allCases.map(\.rawValue))
        case "--kind": .words(LinkFileKind.allCases.map(\.rawValue))
        // A prefix that takes its value after the '=': it completes without a space.
        case "--report": .words(RunReport.Format.allCases.map { $0.rawValue + "=" })
        case "--matrix": .words(MatrixKey.allCases.map { $0.rawValue + "=" })
        case "--case" where command == .checkAward: .words(AwardAudit.caseNames)
        case "--case" where command == .checkEvents: .words(EventAudit.caseNames)
        case "--fault": .words(DeliveryFault.allCases.map(\.rawValue))
        case "--faults": .words(BooksFaults.names)
        case "--partial-refund": .words(PlayerBooks.PartialRefundRule.allCases.map(\.rawValue))
        // A preset, or a key that takes its value after the '='.
        case "--device": .words(OrderDevice.presets.map(\.name) + OrderDevice.keys.map { $0 + "=" })
        case "--fixtures": .directories
        case "--main-key-file", "--events-key-file", "--write-scenario": .files
        default: .free
        }
    }

    /// The arguments a command takes besides options.
    static func operands(of command: Command, catalog: Catalog) -> Values? {
        switch command {
        case .errors: .words(catalog.statusCodes.flatMap { [String($0.code), $0.name] })
        case .run, .checkLinks: .files
        case .completions: .words(Shell.allCases.map(\.rawValue))
        case .trigger: .words(OrderEvent.Name.v2Names)
        default: nil
        }
    }

    /// Countries with their own prices first, then every other ISO 3166-1 code.
    private static func countries(_ catalog: Catalog) -> [String] {
        let localized = catalog.localizedCountries
        return localized + CountryCodes.list.filter { !localized.contains($0) }
    }

    /// The script for `shell`.
    package static func script(for shell: Shell, catalog: Catalog) -> String {
        switch shell {
        case .bash: bash(catalog)
        case .zsh: zsh(catalog)
        case .fish: fish(catalog)
        }
    }

    private static var commandNames: [String] { Command.allCases.map(\.rawValue) + ["help"] }

    /// The options that take a value, each once (some are specified per command).
    private static var valueOptionNames: [String] {
        OptionSpec.all.filter { $0.placeholder != nil }.map(\.name).reduce(into: []) { names, name in
            if !names.contains(name) { names.append(name) }
        }
    }

    /// The values `option` takes, for the commands that take it: one group for the
    /// commands whose values are the same, in the order the commands are declared.
    private static func valueGroups(of option: String, among commands: [Command]? = nil, catalog: Catalog)
        -> [(commands: [Command], values: Values)]
    {
        let taking =
            commands
            ?? Command.allCases.filter { command in
                OptionSpec.all.contains { $0.name == option && $0.commands.contains(command) }
            }
        var groups: [(commands: [Command], values: Values)] = []
        for command in taking {
            let values = values(of: option, after: command, catalog: catalog)
            if let index = groups.firstIndex(where: { $0.values == values }) {
                groups[index].commands.append(command)
            } else {
                groups.append(([command], values))
            }
        }
        return groups
    }

    /// The branch of a completion function that completes `option`'s value with `reply`:
    /// one reply for all the commands that take it, or a `case` on the command line's
    /// subcommand (`command`, as the shell names that word) where they differ.
    private static func valueBranch(
        _ option: String, catalog: Catalog, command: String, indent: String, reply: (Values) -> String
    ) -> String {
        let groups = valueGroups(of: option, catalog: catalog)
        guard groups.count > 1 else {
            return "\(indent)\(option)) \(reply(groups.first?.values ?? .free)); return ;;\n"
        }
        var branch = "\(indent)\(option))\n\(indent)    case \(command) in\n"
        for group in groups {
            branch +=
                "\(indent)        \(group.commands.map(\.rawValue).joined(separator: "|"))) \(reply(group.values)) ;;\n"
        }
        return branch + "\(indent)    esac\n\(indent)    return ;;\n"
    }

    private static func optionNames(_ command: Command) -> [String] {
        OptionSpec.options(for: command).map(\.name) + ["--help"]
    }

    // MARK: bash

    /// What bash does with values of this kind. Words match in any case, as paylinks
    /// reads them; a file or directory completes as readline completes names (a directory
    /// ends in `/` and takes no space, so that it can go on).
    private static func bashReply(_ values: Values?) -> String {
        switch values {
        case .words(let words)?: #"_paylinks_words "\#(words.joined(separator: " "))""#
        case .directories?: "_paylinks_names -d"
        case .files?: "_paylinks_names -f"
        case .free?, nil: "COMPREPLY=()"
        }
    }

    private static func bash(_ catalog: Catalog) -> String {
        var valueCases = ""
        for name in valueOptionNames {
            valueCases += valueBranch(
                name, catalog: catalog, command: "${COMP_WORDS[1]}", indent: "        ", reply: bashReply)
        }
        var commandCases = ""
        for command in Command.allCases {
            let operandWords = bashReply(operands(of: command, catalog: catalog))
            commandCases += """
                        \(command.rawValue))
                            if [[ $cur == -* ]]; then
                                _paylinks_words "\(optionNames(command).joined(separator: " "))"
                            else
                                \(operandWords)
                            fi ;;

                """
        }
        return """
            # bash completion for paylinks \(Help.version)
            # The words among $1 that start with $cur, in any case, after $prefix.
            _paylinks_words() {
                local word lower=${cur,,}
                COMPREPLY=()
                for word in $1; do
                    [[ ${word,,} == "$lower"* ]] && COMPREPLY+=("$prefix$word")
                done
                # A KEY= word takes its value after it, with no space between.
                [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
            }
            # Files (-f) or directories (-d) that start with $cur, named as readline names them.
            _paylinks_names() {
                local name
                compopt -o filenames 2>/dev/null
                COMPREPLY=()
                while IFS= read -r name; do COMPREPLY+=("$prefix$name"); done < <(compgen "$1" -- "$cur")
            }
            _paylinks() {
                local cur=${COMP_WORDS[COMP_CWORD]}
                local prev=${COMP_WORDS[COMP_CWORD-1]}
                local prefix=
                # --name=value: bash splits the word at '=' when COMP_WORDBREAKS holds it.
                if [[ $cur == = ]]; then
                    cur=
                elif [[ $prev == = && $COMP_CWORD -ge 3 ]]; then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                elif [[ $cur == --*=* ]]; then
                    prev=${cur%%=*}
                    prefix=$prev=
                    cur=${cur#*=}
                fi
                if [[ $COMP_CWORD -eq 1 ]]; then
                    _paylinks_words "\(commandNames.joined(separator: " ")) --help --version"
                    return
                fi
                case $prev in
            \(valueCases)    esac
                case ${COMP_WORDS[1]} in
            \(commandCases)        help) _paylinks_words "\(commandNames.joined(separator: " "))" ;;
                    *) COMPREPLY=() ;;
                esac
            }
            complete -F _paylinks paylinks

            """
    }

    // MARK: zsh

    /// What zsh does with values of this kind: words matched in any case, as paylinks
    /// reads them.
    private static func zshAction(_ values: Values?) -> String {
        switch values {
        // A KEY= word takes its value after it, with no space between.
        case .words(let words)? where words.allSatisfy({ $0.hasSuffix("=") }):
            "compadd -S '' -M 'm:{a-zA-Z}={A-Za-z}' -- \(words.joined(separator: " "))"
        case .words(let words)?: "compadd -M 'm:{a-zA-Z}={A-Za-z}' -- \(words.joined(separator: " "))"
        case .directories?: "_files -/"
        case .files?: "_files"
        case .free?, nil: ":"
        }
    }

    private static func zsh(_ catalog: Catalog) -> String {
        var valueCases = ""
        for name in valueOptionNames {
            valueCases += valueBranch(name, catalog: catalog, command: "${words[2]}", indent: "    ", reply: zshAction)
        }
        var commandCases = ""
        for command in Command.allCases {
            let operandAction = zshAction(operands(of: command, catalog: catalog))
            commandCases += """
                  \(command.rawValue))
                    if [[ $cur == -* ]]; then \(zshAction(.words(optionNames(command))))
                    else \(operandAction); fi ;;

                """
        }
        return """
            #compdef paylinks
            # zsh completion for paylinks \(Help.version)
            _paylinks() {
              local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
              if (( CURRENT == 2 )); then
                \(zshAction(.words(commandNames + ["--help", "--version"])))
                return
              fi
              # --name=value: complete the value after the '='.
              if [[ $cur == --*=* ]]; then
                prev=${cur%%=*}
                compset -P '*='
                cur=${cur#*=}
              fi
              case $prev in
            \(valueCases)  esac
              case ${words[2]} in
            \(commandCases)    help) \(zshAction(.words(commandNames))) ;;
              esac
            }
            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
              _paylinks "$@"
            else
              compdef _paylinks paylinks
            fi

            """
    }

    // MARK: fish

    private static func fish(_ catalog: Catalog) -> String {
        var text = """
            # fish completion for paylinks \(Help.version)
            complete -c paylinks -f
            complete -c paylinks -n __fish_use_subcommand -s h -l help -d 'Show the help'
            complete -c paylinks -n __fish_use_subcommand -l version -d 'Show the version'

            """
        for command in Command.allCases {
            text +=
                "complete -c paylinks -n __fish_use_subcommand -a \(command.rawValue) -d \(fishQuoted(command.summary))\n"
        }
        text += "complete -c paylinks -n __fish_use_subcommand -a help -d 'Show the help of a command'\n"
        text +=
            "complete -c paylinks -n '__fish_seen_subcommand_from help' -a '\(Command.allCases.map(\.rawValue).joined(separator: " "))'\n"
        for spec in OptionSpec.all {
            // A line for each group of the spec's commands whose values are the same.
            let groups: [(commands: [Command], values: Values)] =
                spec.placeholder == nil
                ? [(spec.commands, .free)] : valueGroups(of: spec.name, among: spec.commands, catalog: catalog)
            for group in groups {
                let commands = group.commands.map(\.rawValue).joined(separator: " ")
                var line =
                    "complete -c paylinks -n '__fish_seen_subcommand_from \(commands)' -l \(spec.name.dropFirst(2))"
                if spec.placeholder != nil {
                    switch group.values {
                    case .words(let words): line += " -x -a '\(words.joined(separator: " "))'"
                    case .directories: line += " -x -a '(__fish_complete_directories)'"
                    case .files: line += " -r -F"
                    case .free: line += " -x"
                    }
                }
                text += line + " -d \(fishQuoted(spec.summary))\n"
            }
        }
        for command in Command.allCases {
            switch operands(of: command, catalog: catalog) {
            case .words(let words)?:
                text +=
                    "complete -c paylinks -n '__fish_seen_subcommand_from \(command.rawValue)' -a '\(words.joined(separator: " "))'\n"
            case .files?:
                text += "complete -c paylinks -n '__fish_seen_subcommand_from \(command.rawValue)' -F\n"
            default:
                break
            }
        }
        return text
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}
