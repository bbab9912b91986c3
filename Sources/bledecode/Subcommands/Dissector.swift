import ArgumentParser
import BLEReports
import BLEVendorDecoding

/// `bledecode dissector --profile P.yaml -o P.lua`: a Wireshark Lua plugin for a profile.
struct Dissector: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a Wireshark Lua plugin that decodes a profile's vendor frames (protocol bledecode).",
        discussion: "Use it with: tshark -X lua_script:P.lua -r CAPTURE -Y bledecode. See docs/wireshark.md.")

    // An array so that a second --profile is refused rather than silently replacing the first.
    @Option(name: .customLong("profile"), help: "The vendor profile (YAML or JSON); one per plugin.")
    var profilePaths: [String] = []

    @Option(name: .shortAndLong, help: "The Lua file to write (standard output when absent).")
    var output: String?

    func validate() throws {
        guard !profilePaths.isEmpty else { throw ValidationError("Missing expected argument '--profile <profile>'") }
    }

    func run() throws {
        // One plugin per profile: every plugin registers protocol `bledecode`, and Wireshark
        // refuses a second protocol of the same name (docs/wireshark.md).
        guard profilePaths.count == 1 else {
            Diagnostics.error("dissector writes one plugin for one profile, but --profile was given \(profilePaths.count) "
                + "times (\(profilePaths.joined(separator: ", "))): run it once per profile")
            throw ExitCode(2)
        }
        let profile: Profile
        do {
            profile = try ProfileLoader.load(path: profilePaths[0])
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
        if let refusal = LuaDissector.refusal(profile) {
            Diagnostics.error(refusal)
            throw ExitCode(2)
        }
        let out = try Output.open(output)
        out.write(LuaDissector.generate(profile))
        out.flush()
    }
}
