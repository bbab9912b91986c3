import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// Options that choose and shape a report.
struct ReportOptions: ParsableArguments {
    @Option(help: "Which ATT transactions the report lists: all, failed or none (default: failed; all with --verbose or HTML). Totals per characteristic are always there.")
    var transactions: SessionOptions.TransactionListing?

    @Option(help: "Colour: auto (only on a terminal, off when NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output (.html, .md and .json choose the format).")
    var output: String?

    @Flag(help: "Replace addresses, identities and names by pseudonyms in every format.")
    var anonymize = false

    @Option(name: .customLong("anonymize-map"), help: "With --anonymize: write the pseudonym → original mapping (JSON) to this file.")
    var anonymizeMap: String?

    @OptionGroup var vendor: ProfileOptions
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable { case auto, always, never }
