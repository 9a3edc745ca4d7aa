// Writes the public API listing of the PaylinksKit library from its symbol graph:
//   api-listing MODULES-DIRECTORY OUTPUT-FILE
// `make api` builds the library and runs it; a test compares the listing with the API.
import Foundation
import _APIListing

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: api-listing MODULES-DIRECTORY OUTPUT-FILE\n".utf8))
    exit(64)
}
do {
    let listing = try APIListing.listing(
        module: "PaylinksKit", modulesDirectory: URL(fileURLWithPath: arguments[0]))
    try Data(listing.utf8).write(to: URL(fileURLWithPath: arguments[1]))
    print("wrote \(arguments[1]): \(listing.split(separator: "\n").count) lines")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
