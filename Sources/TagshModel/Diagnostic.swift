/// A problem to report to the person, with where it happened.
///
/// Every layer's error enum converts to this, and one renderer in the shell
/// draws it as `file:line:col: error: message`, the source line and a caret.
public struct Diagnostic: Sendable, Equatable, Error {
    public var message: String
    /// The file the problem is in; nil for a line typed at the prompt.
    public var file: String?
    /// 1-based line and column, where known.
    public var line: Int?
    public var column: Int?
    /// The text to draw under the message, and the character range in it to
    /// underline with carets.
    public var sourceLine: String?
    public var span: Range<Int>?
    /// Extra lines ("hint: ...") printed after the caret.
    public var notes: [String]

    public init(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil,
                sourceLine: String? = nil, span: Range<Int>? = nil, notes: [String] = []) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.sourceLine = sourceLine
        self.span = span
        self.notes = notes
    }
}

/// An error that knows how to describe itself as a `Diagnostic`.
public protocol DiagnosticConvertible: Error {
    var diagnostic: Diagnostic { get }
}

extension Diagnostic: DiagnosticConvertible {
    public var diagnostic: Diagnostic { self }
}
