import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// Vendor profiles (docs/profiles.md) to decode vendor frames with.
struct ProfileOptions: ParsableArguments {
    @Option(name: .customLong("profile"), help: "A vendor profile (YAML or JSON); repeatable.")
    var profilePaths: [String] = []

    @Option(name: .customLong("profiles"), help: "A folder of vendor profiles (*.yaml, *.yml, *.json).")
    var profileFolder: String?

    @Option(help: "Which vendor frames the report lists: all (default; past 10,000 only failed ones), failed or none.")
    var frames: VendorLayer.Listing = .all

    @Option(name: .customLong("apply"),
            help: "Decode a connection or device with a profile whatever its match rule says: PROFILE=C3 or PROFILE=D2; repeatable.")
    var applied: [String] = []

    /// `--apply`'s pairs, checked against the profiles loaded (exits with 2 on a bad one).
    func assignments(_ profiles: [Profile]) throws -> [(profile: String, target: ProfileTarget)] {
        try applied.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let target = ProfileTarget(parts[1]) else {
                Diagnostics.error("--apply \(text): expected PROFILE=Cn (a connection) or PROFILE=Dn (a device)")
                throw ExitCode(2)
            }
            guard profiles.contains(where: { $0.name == parts[0] }) else {
                Diagnostics.error("--apply \(text): no profile named '\(parts[0])' was given "
                                  + "(\(profiles.map(\.name).joined(separator: ", ")))")
                throw ExitCode(2)
            }
            return (parts[0], target)
        }
    }

    /// Loads every profile or exits with 2 and the loader's message (file, line, key).
    func load() throws -> [Profile] {
        var paths = profilePaths
        if let folder = profileFolder {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                Diagnostics.error("\(folder): cannot read the profiles folder")
                throw ExitCode(2)
            }
            paths += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }
                .sorted().map { folder + "/" + $0 }
        }
        var profiles: [Profile] = []
        for path in paths {
            do {
                profiles.append(try ProfileLoader.load(path: path))
            } catch {
                Diagnostics.error(error.description)
                throw ExitCode(2)
            }
        }
        return profiles
    }
}
