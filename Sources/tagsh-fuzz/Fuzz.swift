// tagsh-fuzz: libFuzzer entry points, built by scripts/fuzz with
// -sanitize=fuzzer,address -DTAGSH_FUZZ. TAGSH_FUZZ_TARGET picks the target.
import TagshFuzzTargets
#if canImport(Glibc)
import Glibc
#endif

#if TAGSH_FUZZ
nonisolated(unsafe) private var selected = "csv"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTargets.run(selected, Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links an executable's `main` to `<module>_main`; libFuzzer's driver does the rest.
@_cdecl("tagsh_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let t = getenv("TAGSH_FUZZ_TARGET") { selected = String(cString: t) }
    guard FuzzTargets.names.contains(selected) else {
        print("tagsh-fuzz: TAGSH_FUZZ_TARGET must be one of \(FuzzTargets.names.joined(separator: ", "))")
        return 2
    }
    var c = argc
    var v = argv
    return runDriver(&c, &v) { data, size in fuzzOne(data, size) }
}
#else
@main
struct FuzzUsage {
    static func main() {
        print("tagsh-fuzz is built by scripts/fuzz TARGET SECONDS (targets: \(FuzzTargets.names.joined(separator: ", ")))")
    }
}
#endif
