extension Session {
    /// Throws `.interrupted` when Ctrl-C was pressed since the command began.
    ///
    /// Long commands call it between steps (every few thousand rows in a loop
    /// over the ledger) and before anything they cannot take back: a command
    /// that throws has changed nothing.
    func checkInterrupted() throws(ShellError) {
        if interrupted() { throw .interrupted }
    }
}
