import BLEBase

/// A tiny integer expression over a frame's fields, used for per-frame XOR keys and response
/// matching: `(0x5A - seq) mod 256`, `cmd | 0x80`, `byte[2] ^ index`.
///
/// Grammar (C precedence, loosest first):
/// ```
/// expr    := xor ('|' xor)*
/// xor     := and ('^' and)*
/// and     := shift ('&' shift)*
/// shift   := sum (('<<' | '>>') sum)*
/// sum     := product (('+' | '-') product)*
/// product := unary (('*' | '/' | '%' | 'mod') unary)*
/// unary   := ('-' | '~') unary | primary
/// primary := integer | 'seq' | 'cmd' | 'len' | 'index' | 'byte' '[' expr ']' | '(' expr ')'
/// ```
/// Values are 64-bit signed; `+ - *` wrap; `%` and `mod` are the mathematical modulo (never
/// negative for a positive divisor: `(0x5A - 0x5B) % 256` is 255); `/` truncates; division by
/// zero, a shift outside 0...63 and `byte[N]` outside the frame are evaluation errors. There
/// are no loops or calls, the text is at most 256 characters and nesting at most 32 deep, so an
/// expression always terminates quickly.
public indirect enum Expression: Sendable, Equatable {
    case literal(Int64)
    case variable(Variable)
    case byte(Expression)
    case negate(Expression)
    case complement(Expression)
    case binary(BinaryOperator, Expression, Expression)

    public enum Variable: String, Sendable, Equatable, CaseIterable {
        case seq, cmd, len, index
    }

    public enum BinaryOperator: String, Sendable, Equatable {
        case or = "|", xor = "^", and = "&", shiftLeft = "<<", shiftRight = ">>", add = "+", subtract = "-",
             multiply = "*", divide = "/", modulo = "%"
    }

    public static let maxLength = 256
    public static let maxDepth = 32

    /// Parses `text`; errors carry the 1-based column.
    public init(parsing text: String) throws(ExpressionError) {
        var parser = ExpressionParser(text)
        self = try parser.parseAll()
    }

    /// The variables the expression reads (a profile checks they exist before accepting it).
    public var variables: Set<Variable> {
        switch self {
        case .literal: return []
        case .variable(let v): return [v]
        case .byte(let e), .negate(let e), .complement(let e): return e.variables
        case .binary(_, let l, let r): return l.variables.union(r.variables)
        }
    }

    /// The values an expression is evaluated against.
    public struct Context: Sendable {
        public var seq: Int64?
        public var cmd: Int64?
        public var len: Int64?
        public var index: Int64?
        /// The frame as sent, for `byte[N]`.
        public var frame: ByteView

        public init(seq: Int64? = nil, cmd: Int64? = nil, len: Int64? = nil, index: Int64? = nil, frame: ByteView = []) {
            self.seq = seq
            self.cmd = cmd
            self.len = len
            self.index = index
            self.frame = frame
        }
    }

    public func evaluate(_ context: Context) throws(ExpressionError) -> Int64 {
        switch self {
        case .literal(let value): return value
        case .variable(let v):
            let value: Int64?
            switch v {
            case .seq: value = context.seq
            case .cmd: value = context.cmd
            case .len: value = context.len
            case .index: value = context.index
            }
            guard let value else { throw ExpressionError(column: nil, message: "\(v.rawValue) has no value here") }
            return value
        case .byte(let e):
            let n = try e.evaluate(context)
            guard let offset = Int(exactly: n),
                  let value = ByteReader.unsigned(in: context.frame, at: offset, size: 1, bigEndian: true) else {
                throw ExpressionError(column: nil, message: "byte[\(n)] is outside the \(context.frame.count)-byte frame")
            }
            return Int64(value)
        case .negate(let e): return 0 &- (try e.evaluate(context))
        case .complement(let e): return ~(try e.evaluate(context))
        case .binary(let op, let l, let r):
            let a = try l.evaluate(context)
            let b = try r.evaluate(context)
            switch op {
            case .or: return a | b
            case .xor: return a ^ b
            case .and: return a & b
            case .add: return a &+ b
            case .subtract: return a &- b
            case .multiply: return a &* b
            case .shiftLeft, .shiftRight:
                guard b >= 0, b <= 63 else { throw ExpressionError(column: nil, message: "shift by \(b) is outside 0...63") }
                return op == .shiftLeft ? a << b : a >> b
            case .divide, .modulo:
                guard b != 0 else { throw ExpressionError(column: nil, message: "division by zero") }
                if op == .divide { return a.dividedReportingOverflow(by: b).partialValue }
                let m = b.magnitude
                let r = a.magnitude % m
                // Mathematical modulo: the result has the divisor's magnitude range, never negative.
                let mod = (a < 0 && r != 0) ? m - r : r
                return Int64(bitPattern: mod)
            }
        }
    }
}

/// An expression that does not parse or cannot be evaluated; `column` (1-based) when known.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var column: Int?
    public var message: String

    public var description: String { column.map { "column \($0): \(message)" } ?? message }
}

/// Recursive descent over the grammar in `Expression`'s comment, with a depth counter.
struct ExpressionParser {
    private let chars: [Character]
    private var position = 0
    private var depth = 0

    init(_ text: String) { chars = Array(text) }

    private var column: Int { position + 1 }

    private func fail(_ message: String) -> ExpressionError { ExpressionError(column: column, message: message) }

    mutating func parseAll() throws(ExpressionError) -> Expression {
        guard chars.count <= Expression.maxLength else {
            throw ExpressionError(column: Expression.maxLength + 1,
                                  message: "expression longer than \(Expression.maxLength) characters")
        }
        let e = try parseOr()
        skipSpace()
        guard position == chars.count else { throw fail("unexpected '\(chars[position])'") }
        return e
    }

    private mutating func skipSpace() {
        while position < chars.count, chars[position].isWhitespace { position += 1 }
    }

    /// Consumes `token` when it comes next (a word only when not followed by a letter or digit).
    private mutating func accept(_ token: String) -> Bool {
        skipSpace()
        let t = Array(token)
        guard position + t.count <= chars.count, Array(chars[position..<position + t.count]) == t else { return false }
        if let last = t.last, last.isLetter, position + t.count < chars.count {
            let next = chars[position + t.count]
            if next.isLetter || next.isNumber || next == "_" { return false }
        }
        position += t.count
        return true
    }

    private mutating func binaryLevel(_ ops: [(String, Expression.BinaryOperator)],
                                      _ next: (inout ExpressionParser) throws(ExpressionError) -> Expression)
        throws(ExpressionError) -> Expression {
        var lhs = try next(&self)
        outer: while true {
            for (token, op) in ops where accept(token) {
                let rhs = try next(&self)
                lhs = .binary(op, lhs, rhs)
                continue outer
            }
            return lhs
        }
    }

    private mutating func parseOr() throws(ExpressionError) -> Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Expression.maxDepth else { throw fail("expression nested deeper than \(Expression.maxDepth)") }
        return try binaryLevel([("|", .or)]) { (p: inout ExpressionParser) throws(ExpressionError) in try p.parseXor() }
    }

    private mutating func parseXor() throws(ExpressionError) -> Expression {
        try binaryLevel([("^", .xor)]) { (p: inout ExpressionParser) throws(ExpressionError) in try p.parseAnd() }
    }

    private mutating func parseAnd() throws(ExpressionError) -> Expression {
        try binaryLevel([("&", .and)]) { (p: inout ExpressionParser) throws(ExpressionError) in try p.parseShift() }
    }

    private mutating func parseShift() throws(ExpressionError) -> Expression {
        try binaryLevel([("<<", .shiftLeft), (">>", .shiftRight)]) { (p: inout ExpressionParser) throws(ExpressionError) in
            try p.parseSum()
        }
    }

    private mutating func parseSum() throws(ExpressionError) -> Expression {
        try binaryLevel([("+", .add), ("-", .subtract)]) { (p: inout ExpressionParser) throws(ExpressionError) in
            try p.parseProduct()
        }
    }

    private mutating func parseProduct() throws(ExpressionError) -> Expression {
        try binaryLevel([("*", .multiply), ("/", .divide), ("%", .modulo), ("mod", .modulo)]) {
            (p: inout ExpressionParser) throws(ExpressionError) in try p.parseUnary()
        }
    }

    private mutating func parseUnary() throws(ExpressionError) -> Expression {
        let negate = accept("-")
        guard negate || accept("~") else { return try parsePrimary() }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Expression.maxDepth else { throw fail("expression nested deeper than \(Expression.maxDepth)") }
        let operand = try parseUnary()
        return negate ? .negate(operand) : .complement(operand)
    }

    private mutating func parsePrimary() throws(ExpressionError) -> Expression {
        skipSpace()
        guard position < chars.count else { throw fail("expected a value, found the end") }
        if accept("(") {
            let e = try parseOr()
            guard accept(")") else { throw fail("expected ')'") }
            return e
        }
        if accept("byte") {
            guard accept("[") else { throw fail("expected '[' after byte") }
            let e = try parseOr()
            guard accept("]") else { throw fail("expected ']'") }
            return .byte(e)
        }
        for v in Expression.Variable.allCases where accept(v.rawValue) { return .variable(v) }
        let c = chars[position]
        if c.isNumber { return .literal(try parseNumber()) }
        if c.isLetter {
            var word = ""
            var end = position
            while end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" {
                word.append(chars[end])
                end += 1
            }
            throw fail("unknown name '\(word)' (known: seq, cmd, len, index, byte[N])")
        }
        throw fail("unexpected '\(c)'")
    }

    private mutating func parseNumber() throws(ExpressionError) -> Int64 {
        let start = position
        var radix = 10
        if position + 1 < chars.count, chars[position] == "0", chars[position + 1] == "x" || chars[position + 1] == "X" {
            radix = 16
            position += 2
        }
        var digits = ""
        while position < chars.count, chars[position].isHexDigit, radix == 16 || chars[position].isNumber {
            digits.append(chars[position])
            position += 1
        }
        if position < chars.count, chars[position].isLetter || chars[position] == "_" {
            position = start
            throw fail("malformed number")
        }
        guard !digits.isEmpty, let value = Int64(digits, radix: radix) else {
            position = start
            throw fail("number out of 64-bit range or malformed")
        }
        return value
    }
}
