import Testing
@testable import BLEVendorDecoding

/// Deep nesting is refused before the YAML parser, which recurses once per level and overflowed
/// the stack on fuzz-profile's input (Fuzz/regressions/fuzz-profile/deep-flow-nesting: 2,494 `{`,
/// a 0x81 byte, 58 more `{`, and runs of `{` and 0xBB, 2,613 bytes).
struct ProfileNestingTests {
    static let demo = """
        profile: x
        match: {companyId: 0xFFFF}
        channels:
          - direction: host-to-device
            uuid: FFE1
            via: [write-request]
        """

    @Test func fuzzFoundFlowNestingIsAnErrorNotACrash() {
        let found = String(repeating: "{", count: 2494) + "\u{FFFD}" + String(repeating: "{", count: 58)
        #expect(throws: ProfileError(file: "deep.yaml", line: 1, key: "", message: "nested deeper than 64 levels")) {
            try ProfileLoader.load(yaml: found, file: "deep.yaml")
        }
    }

    @Test(arguments: [
        (String(repeating: "[", count: 65), 1, "nested deeper than 64 levels"),
        ("a: 1\n" + String(repeating: "- ", count: 65) + "x", 2, "nested deeper than 64 levels"),
        ("a:\n" + String(repeating: " ", count: 257) + "b: 1", 2, "indented deeper than 256 spaces"),
    ])
    func tooDeep(yaml: String, line: Int, message: String) {
        #expect(ProfileNesting.violation(in: yaml)?.line == line)
        #expect(ProfileNesting.violation(in: yaml)?.message == message)
    }

    @Test func limitsThemselvesAreAllowed() {
        #expect(ProfileNesting.violation(in: String(repeating: "[", count: 64)) == nil)
        #expect(ProfileNesting.violation(in: String(repeating: "- ", count: 64) + "x") == nil)
        #expect(ProfileNesting.violation(in: "a:\n" + String(repeating: " ", count: 256) + "b: 1") == nil)
        #expect(ProfileNesting.violation(in: Self.demo) == nil)
    }

    @Test func closedBracketsDoNotAccumulate() {
        #expect(ProfileNesting.violation(in: String(repeating: "[a] {b: c} ", count: 1000)) == nil)
    }
}
