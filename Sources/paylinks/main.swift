import PaylinksKit

System.exit(PaylinksCLI.run(CommandLine.arguments))
