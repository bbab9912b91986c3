import ArgumentParser
import BLEReports
import BLEVendorDecoding

/// `bledecode dissector --profile P.yaml -o P.lua`: a Wireshark Lua plugin for a profile.
struct Dissector: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a Wireshark Lua plugin that decodes a profile's vendor frames (protocol bledecode).",
        discussion: "Use it with: tshark -X lua_script:P.lua -r CAPTURE -Y bledecode. See docs/wireshark.md.")

    @Option(name: .customLong("profile"), help: "The vendor profile (YAML or JSON).")
    var profilePath: String

    @Option(name: .shortAndLong, help: "The Lua file to write (standard output when absent).")
    var output: String?

    func run() throws {
        let profile: Profile
        do {
            profile = try ProfileLoader.load(path: profilePath)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
        let out = try Output.open(output)
        out.write(LuaDissector.generate(profile))
        out.flush()
    }
}
