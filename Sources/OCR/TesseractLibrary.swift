import CTesseract
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tesseract's C API, loaded with `dlopen` when OCR is first asked for instead of linked.
///
/// Linked, a machine without libtesseract could not start `uidetect` at all, for any command;
/// loaded, `describe` says the library is missing and goes on without OCR. The types and
/// constants still come from Debian's header through the `CTesseract` system library target.
struct TesseractLibrary: @unchecked Sendable {
    let create: @convention(c) () -> OpaquePointer?
    let initialise: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let delete: @convention(c) (OpaquePointer?) -> Void
    let end: @convention(c) (OpaquePointer?) -> Void
    let clear: @convention(c) (OpaquePointer?) -> Void
    let setPageSegMode: @convention(c) (OpaquePointer?, TessPageSegMode) -> Void
    let setVariable: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let setImage: @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void
    let setSourceResolution: @convention(c) (OpaquePointer?, Int32) -> Void
    let recognize: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let getIterator: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let deleteIterator: @convention(c) (OpaquePointer?) -> Void
    let pageIterator: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let utf8Text: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> UnsafeMutablePointer<CChar>?
    let deleteText: @convention(c) (UnsafePointer<CChar>?) -> Void
    let boundingBox: @convention(c) (OpaquePointer?, TessPageIteratorLevel, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                                     UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    let confidence: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Float
    let next: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Int32

    /// The file names tried in order; `UIDETECT_TESSERACT_LIBRARY` names another (a path or a name).
    static let candidates = ["libtesseract.so.5", "libtesseract.so", "libtesseract.5.dylib", "libtesseract.dylib"]

    /// The process's library, loaded once: the API, or why it could not be loaded.
    static let shared: Result<TesseractLibrary, OCRError> = {
        // Debian's Tesseract runs each LSTM step as an OpenMP loop with a fixed 4 threads (a
        // num_threads clause, which OMP_NUM_THREADS does not lower). With fewer free cores than
        // that, every step waits in futex barriers: on 2 cores a 540 x 1170 screen took 1.85 s
        // against 0.22 s on one thread, with the same text. libgomp reads OMP_THREAD_LIMIT when it
        // loads, which is when libtesseract is opened here; a limit the user set is kept.
        setenv("OMP_THREAD_LIMIT", "1", 0)
        let names = ProcessInfo.processInfo.environment["UIDETECT_TESSERACT_LIBRARY"].map { [$0] } ?? candidates
        return load(names)
    }()

    /// The first of `names` that opens and has every function this module calls.
    static func load(_ names: [String]) -> Result<TesseractLibrary, OCRError> {
        var reasons: [String] = []
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be opened")
                continue
            }
            do { return .success(try TesseractLibrary(handle: handle, name: name)) } catch {
                reasons.append("\(error)")
                dlclose(handle)
            }
        }
        let reason = "the Tesseract library could not be loaded (scripts/setup.sh installs Debian's libtesseract5): " + reasons.joined(separator: "; ")
        return .failure(.libraryMissing(reason: reason))
    }

    private struct MissingSymbol: Error, CustomStringConvertible {
        let library: String, symbol: String
        var description: String { "\(library) has no \(symbol)" }
    }

    private init(handle: UnsafeMutableRawPointer, name: String) throws {
        // Each function's type is the property's it is assigned to.
        func symbol<F>(_ symbol: String) throws -> F {
            guard let address = dlsym(handle, symbol) else { throw MissingSymbol(library: name, symbol: symbol) }
            return unsafeBitCast(address, to: F.self)
        }
        create = try symbol("TessBaseAPICreate")
        initialise = try symbol("TessBaseAPIInit3")
        delete = try symbol("TessBaseAPIDelete")
        end = try symbol("TessBaseAPIEnd")
        clear = try symbol("TessBaseAPIClear")
        setPageSegMode = try symbol("TessBaseAPISetPageSegMode")
        setVariable = try symbol("TessBaseAPISetVariable")
        setImage = try symbol("TessBaseAPISetImage")
        setSourceResolution = try symbol("TessBaseAPISetSourceResolution")
        recognize = try symbol("TessBaseAPIRecognize")
        getIterator = try symbol("TessBaseAPIGetIterator")
        deleteIterator = try symbol("TessResultIteratorDelete")
        pageIterator = try symbol("TessResultIteratorGetPageIterator")
        utf8Text = try symbol("TessResultIteratorGetUTF8Text")
        deleteText = try symbol("TessDeleteText")
        boundingBox = try symbol("TessPageIteratorBoundingBox")
        confidence = try symbol("TessResultIteratorConfidence")
        next = try symbol("TessResultIteratorNext")
    }
}
