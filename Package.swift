// swift-tools-version: 6.0
import PackageDescription

/// libpcap reads pcap and pcapng on the platforms that have it; the iOS SDK has none, and there
/// those two formats are refused with an error (Sources/BLECaptureFormats/Pcap/PcapFile.swift).
/// `BLEDECODE_WITHOUT_LIBPCAP=1` builds without it anywhere, which is how CI checks that build on
/// Linux (scripts/check-without-libpcap).
let libpcap: [Target.Dependency] = Context.environment["BLEDECODE_WITHOUT_LIBPCAP"] == "1"
    ? [] : [.target(name: "CBLEPcap", condition: .when(platforms: [.macOS, .linux]))]

/// One library per layer; dependencies point down only:
/// BLEBase ← BLECaptureFormats ← BLEHCI | BLELinkLayer ← BLEL2CAP ← BLEATT ← BLEPacketDecoding ← BLESessions ←
/// BLEVendorDecoding ← BLEAnalysis ← BLEReports ← BLEDecode (the library product) | bledecode.
/// The modules the library reaches are named `BLE…`: a module name is unique in a whole package
/// graph, so a user's own `Analysis` target would otherwise clash with ours.
/// No unsafe flags, so that the package can be a versioned dependency: the release build's speed
/// settings are scripts/release-build's.
let package = Package(
    name: "bledecode",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "bledecode", targets: ["BLEDecodeCLI"]),
        .library(name: "BLEDecode", targets: ["BLEDecode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        .systemLibrary(name: "CBLEPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]),
        .systemLibrary(name: "CBLEZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "BLEBase"),
        .target(name: "BLEAssignedNumbers", dependencies: ["BLEBase"]),
        .target(name: "BLECaptureFormats", dependencies: ["BLEBase", "CBLEZlib"] + libpcap),
        .target(name: "BLEHCI", dependencies: ["BLEBase", "BLEAssignedNumbers"]),
        .target(name: "BLELinkLayer", dependencies: ["BLEBase", "BLEAssignedNumbers"]),
        .target(name: "BLEL2CAP", dependencies: ["BLEBase"]),
        .target(name: "BLEATT", dependencies: ["BLEBase", "BLEAssignedNumbers"]),
        .target(name: "BLEPacketDecoding", dependencies: ["BLECaptureFormats", "BLEHCI", "BLELinkLayer", "BLEL2CAP", "BLEATT"]),
        .target(name: "BLESessions", dependencies: ["BLEPacketDecoding"]),
        .target(name: "BLEVendorDecoding", dependencies: ["BLEBase", .product(name: "Yams", package: "Yams")]),
        .target(name: "BLEAnalysis", dependencies: ["BLESessions", "BLEVendorDecoding"]),
        .target(name: "BLEReports", dependencies: ["BLEAnalysis"]),
        // The library product's public API (docs/library.md); everything below it stays out of sight.
        .target(name: "BLEDecode", dependencies: ["BLEReports", "BLEAnalysis", "BLESessions", "BLEVendorDecoding", "BLECaptureFormats", "BLEATT", "BLEAssignedNumbers", "BLEBase"]),
        // The command line; its module is not named `bledecode`, which a case-insensitive file
        // system (macOS) takes for the library's `BLEDecode`.
        .executableTarget(name: "BLEDecodeCLI", dependencies: [
            "BLEReports", "BLEAnalysis", "BLESessions", "BLEVendorDecoding", "BLEPacketDecoding", "BLEBase",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/bledecode"),
        .target(name: "AnalyzerTestSupport", dependencies: ["BLEBase", "BLECaptureFormats", "CBLEZlib"]),
        .executableTarget(name: "make-samples", dependencies: ["AnalyzerTestSupport"]),
        .executableTarget(name: "make-big-capture", dependencies: ["AnalyzerTestSupport"]),
        .testTarget(name: "BLEBaseTests", dependencies: ["BLEBase", "BLEAssignedNumbers"]),
        .testTarget(name: "CaptureFormatsTests", dependencies: ["BLECaptureFormats", "AnalyzerTestSupport"]),
        .testTarget(name: "HCITests", dependencies: ["BLEHCI", "BLEAssignedNumbers"]),
        .testTarget(name: "LinkLayerTests", dependencies: ["BLELinkLayer"]),
        .testTarget(name: "L2CAPTests", dependencies: ["BLEL2CAP"]),
        .testTarget(name: "ATTTests", dependencies: ["BLEATT"]),
        .testTarget(name: "PacketDecodingTests", dependencies: ["BLEPacketDecoding", "AnalyzerTestSupport"]),
        .testTarget(name: "SessionsTests", dependencies: ["BLESessions", "AnalyzerTestSupport"]),
        .testTarget(name: "VendorDecodingTests", dependencies: [
            "BLEVendorDecoding", "BLEPacketDecoding", "AnalyzerTestSupport", .product(name: "Yams", package: "Yams"),
        ]),
        // Uses only `import BLEDecode`, as a user's package would; runs `bledecode` to compare with.
        .testTarget(name: "BLEDecodeAPITests", dependencies: ["BLEDecode", "BLEDecodeCLI"],
                    swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(name: "CLITests", dependencies: ["AnalyzerTestSupport", "BLEDecodeCLI"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (docs/fuzzing.md, Fuzz/smoke): declared only when BLEDECODE_FUZZ=1, because they
// link only with `-sanitize=fuzzer` (libFuzzer's driver); Fuzz/smoke builds them in their own scratch path.
if Context.environment["BLEDECODE_FUZZ"] == "1" {
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["BLECaptureFormats", "CFuzzDriver"],
                                   path: "Fuzz/FuzzSupport"))
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("fuzz-btsnoop", ["BLECaptureFormats"]),
        ("fuzz-pcap", ["BLECaptureFormats"]),
        ("fuzz-packetlogger", ["BLECaptureFormats"]),
        ("fuzz-capture", ["BLECaptureFormats"]),
        ("fuzz-hci", ["BLECaptureFormats", "BLEPacketDecoding", "BLEReports"]),
        ("fuzz-l2cap", ["BLEBase", "BLEL2CAP"]),
        ("fuzz-att", ["BLEBase", "BLEATT"]),
        ("fuzz-ll", ["BLELinkLayer"]),
        ("fuzz-profile", ["BLEBase", "BLEVendorDecoding"]),
        ("fuzz-pipeline", ["BLECaptureFormats", "BLEAnalysis", "BLEReports", "BLEVendorDecoding"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies,
                                                 path: "Fuzz/\(name)"))
    }
}
