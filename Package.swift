// swift-tools-version: 6.0
import PackageDescription

/// libpcap reads pcap and pcapng on the platforms that have it; the iOS SDK has none, and there
/// those two formats are refused with an error (Sources/CaptureFormats/Pcap/PcapFile.swift).
/// `BLEDECODE_WITHOUT_LIBPCAP=1` builds without it anywhere, which is how CI checks that build on
/// Linux (scripts/check-without-libpcap).
let libpcap: [Target.Dependency] = Context.environment["BLEDECODE_WITHOUT_LIBPCAP"] == "1"
    ? [] : [.target(name: "CPcap", condition: .when(platforms: [.macOS, .linux]))]

/// One library per layer; dependencies point down only:
/// BLEBase ← CaptureFormats ← HCI | LinkLayer ← L2CAP ← ATT ← PacketDecoding ← Sessions ← VendorDecoding ←
/// Analysis ← Reports ← BLEDecode (the library product) | bledecode.
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
        .systemLibrary(name: "CPcap", pkgConfig: "libpcap", providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "BLEBase"),
        .target(name: "AssignedNumbers", dependencies: ["BLEBase"]),
        .target(name: "CaptureFormats", dependencies: ["BLEBase", "CZlib"] + libpcap),
        .target(name: "HCI", dependencies: ["BLEBase", "AssignedNumbers"]),
        .target(name: "LinkLayer", dependencies: ["BLEBase", "AssignedNumbers"]),
        .target(name: "L2CAP", dependencies: ["BLEBase"]),
        .target(name: "ATT", dependencies: ["BLEBase", "AssignedNumbers"]),
        .target(name: "PacketDecoding", dependencies: ["CaptureFormats", "HCI", "LinkLayer", "L2CAP", "ATT"]),
        .target(name: "Sessions", dependencies: ["PacketDecoding"]),
        .target(name: "VendorDecoding", dependencies: ["BLEBase", .product(name: "Yams", package: "Yams")]),
        .target(name: "Analysis", dependencies: ["Sessions", "VendorDecoding"]),
        .target(name: "Reports", dependencies: ["Analysis"]),
        // The library product's public API (docs/library.md); everything below it stays out of sight.
        .target(name: "BLEDecode", dependencies: ["Reports", "Analysis", "Sessions", "VendorDecoding", "CaptureFormats", "ATT", "BLEBase"]),
        // The command line; its module is not named `bledecode`, which a case-insensitive file
        // system (macOS) takes for the library's `BLEDecode`.
        .executableTarget(name: "BLEDecodeCLI", dependencies: [
            "Reports", "Analysis", "Sessions", "VendorDecoding", "PacketDecoding", "BLEBase",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/bledecode"),
        .target(name: "AnalyzerTestSupport", dependencies: ["BLEBase", "CaptureFormats", "CZlib"]),
        .executableTarget(name: "make-samples", dependencies: ["AnalyzerTestSupport"]),
        .executableTarget(name: "make-big-capture", dependencies: ["AnalyzerTestSupport"]),
        .testTarget(name: "BLEBaseTests", dependencies: ["BLEBase", "AssignedNumbers"]),
        .testTarget(name: "CaptureFormatsTests", dependencies: ["CaptureFormats", "AnalyzerTestSupport"]),
        .testTarget(name: "HCITests", dependencies: ["HCI", "AssignedNumbers"]),
        .testTarget(name: "LinkLayerTests", dependencies: ["LinkLayer"]),
        .testTarget(name: "L2CAPTests", dependencies: ["L2CAP"]),
        .testTarget(name: "ATTTests", dependencies: ["ATT"]),
        .testTarget(name: "PacketDecodingTests", dependencies: ["PacketDecoding", "AnalyzerTestSupport"]),
        .testTarget(name: "SessionsTests", dependencies: ["Sessions", "AnalyzerTestSupport"]),
        .testTarget(name: "VendorDecodingTests", dependencies: [
            "VendorDecoding", "PacketDecoding", "AnalyzerTestSupport", .product(name: "Yams", package: "Yams"),
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
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CaptureFormats", "CFuzzDriver"],
                                   path: "Fuzz/FuzzSupport"))
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("fuzz-btsnoop", ["CaptureFormats"]),
        ("fuzz-pcap", ["CaptureFormats"]),
        ("fuzz-packetlogger", ["CaptureFormats"]),
        ("fuzz-capture", ["CaptureFormats"]),
        ("fuzz-hci", ["CaptureFormats", "PacketDecoding", "Reports"]),
        ("fuzz-l2cap", ["BLEBase", "L2CAP"]),
        ("fuzz-att", ["BLEBase", "ATT"]),
        ("fuzz-ll", ["LinkLayer"]),
        ("fuzz-profile", ["BLEBase", "VendorDecoding"]),
        ("fuzz-pipeline", ["CaptureFormats", "Analysis", "Reports", "VendorDecoding"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies,
                                                 path: "Fuzz/\(name)"))
    }
}
