import Foundation

// libFuzzer's entry for programs that have their own `main` (SwiftPM gives every executable one).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The code under test: libFuzzer's callback is a C function and cannot capture it, so it lives here.
nonisolated(unsafe) private var body: (Data) -> Void = { _ in }

/// Runs libFuzzer with the command line's options, calling `test` with every input it makes.
/// `test` must not throw or return errors for bad input: refusing is fine, only a trap is a finding.
public func fuzz(_ test: @escaping (Data) -> Void) -> Never {
    body = test
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        body(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
    exit(status)
}
