// Writes Sources/PaylinksKit/Catalog/BuiltInCatalog.swift from Fixtures/*.json:
//   generate-catalog [FIXTURES-DIRECTORY [OUTPUT-FILE]]
import Foundation
import _GenerateCatalog

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 2, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data("usage: generate-catalog [FIXTURES-DIRECTORY [OUTPUT-FILE]]\n".utf8))
    exit(64)
}
let fixtures = URL(fileURLWithPath: arguments.first ?? "Fixtures")
let output = URL(fileURLWithPath: arguments.dropFirst().first ?? "Sources/PaylinksKit/Catalog/BuiltInCatalog.swift")
do {
    let source = CatalogSwiftSource.render(try CatalogSwiftSource.loadFixtures(in: fixtures))
    if (try? String(contentsOf: output, encoding: .utf8)) == source {
        print("\(output.path) is up to date")
    } else {
        try Data(source.utf8).write(to: output)
        print("wrote \(output.path)")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(65)
}
