#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGINT handler; nothing else happens inside the handler.
nonisolated(unsafe) private var interruptCount: sig_atomic_t = 0

/// Ctrl-C as a flag: the handler records it, and the line editor and long
/// commands (through `Session.interrupted`) ask for it.
public enum Interrupt {
    /// A handler that only sets the flag, rather than SIG_IGN (which children
    /// would inherit): libedit re-raises SIGINT after Ctrl-C, and without a
    /// handler the process dies.
    public static func installHandler() {
        signal(SIGINT) { _ in interruptCount = 1 }
    }

    /// Whether Ctrl-C was pressed since the last `reset()`.
    public static var wasRequested: Bool { interruptCount != 0 }

    public static func reset() { interruptCount = 0 }
}
