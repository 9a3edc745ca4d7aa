import PaylinksCommandLine

System.exit(PaylinksCLI.run(CommandLine.arguments))
