import BLEAnalysis
import ArgumentParser
import BLEBase
import BLEReports
import BLESessions
import BLEVendorDecoding

/// `bledecode verify CAPTURE --profile P`: checks every vendor frame of recorded traffic.
/// Exit 0 when everything verifies, 1 when anything fails, 2 for usage or input errors.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify the vendor frames of a capture against profiles (checksums, framing, responses).",
        discussion: "Exit codes: 0 every frame verified and every command succeeded; 1 something failed; 2 usage or input error.")

    @OptionGroup var input: InputOptions
    @OptionGroup var vendor: ProfileOptions

    @Flag(help: "Write the table as JSON.")
    var json = false

    func validate() throws {
        if vendor.profilePaths.isEmpty && vendor.profileFolder == nil {
            throw ValidationError("verify needs at least one --profile or --profiles folder")
        }
    }

    func run() throws {
        let profiles = try vendor.load()
        let reader = try input.open()
        let analysis = Analysis.run(reader, options: SessionOptions(transactions: .none), profiles: profiles, frames: .failed,
                                    assignments: try vendor.assignments(profiles))
        let out = BufferedOutput()
        let report = VerifyReport(analysis)
        if json {
            report.writeJSON(to: out)
        } else {
            report.writeTable(to: out)
        }
        out.flush()
        // The reader's diagnostics and the analysis' warnings (profiles that overlap).
        _ = Diagnostics.report(analysis.diagnostics)
        if !report.verified { throw ExitCode(1) }
    }
}
