@preconcurrency import CHDF5
import Foundation

/// The HDF5 library this build runs on (Debian bookworm's is 1.10.8, which crashes on some damaged
/// files: Experiments/fuzzing).
public enum HDF5Library {
    /// Major, minor and release number.
    public static var version: (major: Int, minor: Int, release: Int) {
        var major: UInt32 = 0, minor: UInt32 = 0, release: UInt32 = 0
        H5get_libversion(&major, &minor, &release)
        return (Int(major), Int(minor), Int(release))
    }
}

/// A thin, throwing layer over the HDF5 C library: handles that close
/// themselves, and reads and writes of whole datasets and attributes.
/// Every failure becomes an `HDF5Failure` naming the object and what was asked;
/// the shard code turns it into a `ShardError` naming the file and dataset.
enum HDF5 {
    /// Starts the library once; failures are reported by return codes.
    static let initialized: Bool = {
        H5open()
        return true
    }()

    /// Silences HDF5's own error printing on the calling thread: in a thread-safe
    /// build that setting is per thread, so every entry point calls this.
    static func silence() {
        _ = initialized
        H5Eset_auto2(hid_t(H5E_DEFAULT), nil, nil)
    }

    /// An open HDF5 object (file, dataset, dataspace, type, property list, attribute).
    final class Handle {
        let id: hid_t
        private let closer: (hid_t) -> herr_t
        init(_ id: hid_t, what: String, close: @escaping (hid_t) -> herr_t) throws {
            guard id >= 0 else { throw HDF5Failure(what) }
            self.id = id
            closer = close
        }
        deinit { _ = closer(id) }
    }

    static func check(_ status: herr_t, _ what: @autoclosure () -> String) throws {
        if status < 0 { throw HDF5Failure(what()) }
    }

    // MARK: files

    static func openFile(_ path: String) throws -> Handle {
        silence()
        return try Handle(H5Fopen(path, 0x0000 /* H5F_ACC_RDONLY */, hid_t(H5P_DEFAULT)), what: "open the file", close: H5Fclose)
    }

    static func createFile(_ path: String) throws -> Handle {
        silence()
        let fapl = try Handle(H5Pcreate(H5P_CLS_FILE_ACCESS_ID_g), what: "make file access properties", close: H5Pclose)
        // v1.8+ object headers carry checksums, so corrupted metadata is detected on read.
        try check(H5Pset_libver_bounds(fapl.id, H5F_LIBVER_V18, H5F_LIBVER_V110), "set format bounds")
        // No modification times in object headers: the same data must give the same bytes.
        let fcpl = try Handle(H5Pcreate(H5P_CLS_FILE_CREATE_ID_g), what: "make file creation properties", close: H5Pclose)
        try check(H5Pset_obj_track_times(fcpl.id, false), "turn off time tracking")
        return try Handle(H5Fcreate(path, 0x0002 /* H5F_ACC_TRUNC */, fcpl.id, fapl.id), what: "create the file", close: H5Fclose)
    }

    // MARK: datasets

    static func exists(_ file: Handle, _ name: String) -> Bool {
        H5Lexists(file.id, name, hid_t(H5P_DEFAULT)) > 0
    }

    static func openDataset(_ file: Handle, _ name: String) throws -> Handle {
        try Handle(H5Dopen2(file.id, name, hid_t(H5P_DEFAULT)), what: "open", close: H5Dclose)
    }

    /// The extents of a dataset's dataspace.
    static func dims(_ dataset: Handle) throws -> [Int] {
        let space = try Handle(H5Dget_space(dataset.id), what: "get the dataspace", close: H5Sclose)
        let rank = Int(H5Sget_simple_extent_ndims(space.id))
        guard rank >= 0 else { throw HDF5Failure("read the rank") }
        var d = [hsize_t](repeating: 0, count: rank)
        guard H5Sget_simple_extent_dims(space.id, &d, nil) >= 0 else { throw HDF5Failure("read the shape") }
        return d.map { Int($0) }
    }

    /// The HDF5 type class and size of a dataset's elements.
    static func elementType(_ dataset: Handle) throws -> (cls: H5T_class_t, size: Int, unsigned: Bool) {
        let type = try Handle(H5Dget_type(dataset.id), what: "get the element type", close: H5Tclose)
        let cls = H5Tget_class(type.id)
        let signed = cls == H5T_INTEGER ? H5Tget_sign(type.id) == H5T_SGN_2 : true
        return (cls, Int(H5Tget_size(type.id)), !signed)
    }

    /// Reads a whole numeric dataset, converted to `memType`.
    static func read<T>(_ dataset: Handle, count: Int, memType: hid_t, as: T.Type, zero: T) throws -> [T] {
        var out = [T](repeating: zero, count: count)
        guard count > 0 else { return out }
        try out.withUnsafeMutableBytes {
            try check(H5Dread(dataset.id, memType, hid_t(H5S_ALL), hid_t(H5S_ALL), hid_t(H5P_DEFAULT), $0.baseAddress), "read the values")
        }
        return out
    }

    /// Reads `count` consecutive rows starting at `start` along the first axis of a
    /// dataset whose rows hold `rowElements` uint8 values each.
    static func readRows(_ dataset: Handle, dims: [Int], start: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws {
        silence()
        let space = try Handle(H5Dget_space(dataset.id), what: "get the dataspace", close: H5Sclose)
        var offset = [hsize_t](repeating: 0, count: dims.count)
        offset[0] = hsize_t(start)
        var extent = dims.map { hsize_t($0) }
        extent[0] = hsize_t(count)
        try check(H5Sselect_hyperslab(space.id, H5S_SELECT_SET, offset, nil, extent, nil), "select rows \(start)..<\(start + count)")
        let memSpace = try Handle(H5Screate_simple(Int32(extent.count), extent, nil), what: "make a memory space", close: H5Sclose)
        try check(H5Dread(dataset.id, H5T_NATIVE_UINT8_g, memSpace.id, space.id, hid_t(H5P_DEFAULT), buffer),
                  "read rows \(start)..<\(start + count)")
    }

    /// Reads a 1-D dataset of strings, fixed- or variable-length, ASCII or UTF-8.
    static func readStrings(_ dataset: Handle, count: Int) throws -> [String] {
        let fileType = try Handle(H5Dget_type(dataset.id), what: "get the element type", close: H5Tclose)
        guard H5Tget_class(fileType.id) == H5T_STRING else { throw HDF5Failure("read strings: the elements are not strings") }
        return try readStrings(fileType: fileType, count: count) { mem, buf in H5Dread(dataset.id, mem, hid_t(H5S_ALL), hid_t(H5S_ALL), hid_t(H5P_DEFAULT), buf) }
    }

    /// The most bytes of fixed-length strings read in one call (1 GB).
    static let maximumStringBytes = 1 << 30

    /// Strings of either layout, read by `read(memType, buffer)`.
    private static func readStrings(fileType: Handle, count: Int, read: (hid_t, UnsafeMutableRawPointer?) -> herr_t) throws -> [String] {
        guard count > 0 else { return [] }
        // The memory type keeps the file's character set: HDF5 will not convert between ASCII and UTF-8.
        let memType = try Handle(H5Tcopy(fileType.id), what: "copy the string type", close: H5Tclose)
        if H5Tis_variable_str(fileType.id) > 0 {
            var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
            try pointers.withUnsafeMutableBytes { try check(read(memType.id, $0.baseAddress), "read the strings") }
            defer { for p in pointers { if let p { H5free_memory(p) } } }
            return pointers.map { $0.map { String(cString: $0) } ?? "" }
        }
        let size = Int(H5Tget_size(fileType.id))
        // A fixed length is declared by the file: its product with the count is checked before allocating.
        let (total, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, total <= maximumStringBytes else {
            throw HDF5Failure("read strings: \(count) strings of \(size) bytes each are more than the \(maximumStringBytes >> 20) MB read at once")
        }
        var bytes = [UInt8](repeating: 0, count: total)
        try bytes.withUnsafeMutableBytes { try check(read(memType.id, $0.baseAddress), "read the strings") }
        return bytes.withUnsafeBufferPointer { all in
            (0..<count).map { i in trimmed(UnsafeBufferPointer(rebasing: all[(i * size)..<((i + 1) * size)])) }
        }
    }

    /// A fixed-length field's text: up to its first NUL, without the blanks that pad it on either side.
    /// ASCII blanks are trimmed on the bytes, since Foundation's trim, run on every per-box string of a
    /// shard, was most of the time of opening one; a field that still begins or ends with a non-ASCII
    /// byte goes through Foundation, which also knows the Unicode spaces.
    static func trimmed(_ field: UnsafeBufferPointer<UInt8>) -> String {
        var end = field.firstIndex(of: 0) ?? field.count
        var start = 0
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        while start < end && isBlank(field[start]) { start += 1 }
        while end > start && isBlank(field[end - 1]) { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: field[start..<end]), as: UTF8.self)
        guard start < end, field[start] >= 0x80 || field[end - 1] >= 0x80 else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    // MARK: attributes

    static func attributeExists(_ object: Handle, _ name: String) -> Bool { H5Aexists(object.id, name) > 0 }

    /// Reads a string attribute (a scalar, or a 1-D array of strings).
    static func readStringAttribute(_ object: Handle, _ name: String) throws -> [String] {
        let attr = try Handle(H5Aopen(object.id, name, hid_t(H5P_DEFAULT)), what: "open attribute '\(name)'", close: H5Aclose)
        let type = try Handle(H5Aget_type(attr.id), what: "get the type of '\(name)'", close: H5Tclose)
        guard H5Tget_class(type.id) == H5T_STRING else { throw HDF5Failure("attribute '\(name)' is not a string") }
        let space = try Handle(H5Aget_space(attr.id), what: "get the shape of '\(name)'", close: H5Sclose)
        let count = Int(H5Sget_simple_extent_npoints(space.id))
        return try readStrings(fileType: type, count: count) { mem, buf in H5Aread(attr.id, mem, buf) }
    }

    /// Reads a scalar integer attribute (any integer type).
    static func readIntAttribute(_ object: Handle, _ name: String) throws -> Int {
        let attr = try Handle(H5Aopen(object.id, name, hid_t(H5P_DEFAULT)), what: "open attribute '\(name)'", close: H5Aclose)
        let type = try Handle(H5Aget_type(attr.id), what: "get the type of '\(name)'", close: H5Tclose)
        guard H5Tget_class(type.id) == H5T_INTEGER else { throw HDF5Failure("attribute '\(name)' is not an integer") }
        let space = try Handle(H5Aget_space(attr.id), what: "get the shape of '\(name)'", close: H5Sclose)
        guard H5Sget_simple_extent_npoints(space.id) == 1 else { throw HDF5Failure("attribute '\(name)' is not a single value") }
        var v: Int64 = 0
        try check(H5Aread(attr.id, H5T_NATIVE_INT64_g, &v), "read attribute '\(name)'")
        return Int(v)
    }

    static func writeStringAttribute(_ object: Handle, _ name: String, _ values: [String], scalar: Bool) throws {
        let (type, bytes) = try fixedUTF8(values)
        let space = scalar
            ? try Handle(H5Screate(H5S_SCALAR), what: "make a scalar space", close: H5Sclose)
            : try Handle(H5Screate_simple(1, [hsize_t(values.count)], nil), what: "make a space", close: H5Sclose)
        let attr = try Handle(H5Acreate2(object.id, name, type.id, space.id, hid_t(H5P_DEFAULT), hid_t(H5P_DEFAULT)),
                              what: "create attribute '\(name)'", close: H5Aclose)
        try bytes.withUnsafeBytes { try check(H5Awrite(attr.id, type.id, $0.baseAddress), "write attribute '\(name)'") }
    }

    static func writeIntAttribute(_ object: Handle, _ name: String, _ value: Int64) throws {
        let space = try Handle(H5Screate(H5S_SCALAR), what: "make a scalar space", close: H5Sclose)
        let attr = try Handle(H5Acreate2(object.id, name, H5T_STD_I64LE_g, space.id, hid_t(H5P_DEFAULT), hid_t(H5P_DEFAULT)),
                              what: "create attribute '\(name)'", close: H5Aclose)
        var v = value
        try check(H5Awrite(attr.id, H5T_NATIVE_INT64_g, &v), "write attribute '\(name)'")
    }

    // MARK: writing datasets

    /// Fixed-length, null-padded UTF-8 strings as long as the longest value, and the packed bytes.
    ///
    /// The format allows fixed or variable length; fixed length keeps the
    /// bytes in checksummed places (chunks, object headers), whereas variable-
    /// length strings sit in HDF5's global heap, where a flipped byte would
    /// change an id without any error.
    static func fixedUTF8(_ values: [String]) throws -> (Handle, [UInt8]) {
        let encoded = values.map { Array($0.utf8) }
        let length = max(1, encoded.map(\.count).max() ?? 1)
        var bytes = [UInt8](repeating: 0, count: length * values.count)
        for (i, e) in encoded.enumerated() { for (j, b) in e.enumerated() { bytes[i * length + j] = b } }
        let type = try Handle(H5Tcopy(H5T_C_S1_g), what: "copy the string type", close: H5Tclose)
        try check(H5Tset_size(type.id, length), "set the string length")
        try check(H5Tset_cset(type.id, H5T_CSET_UTF8), "set UTF-8")
        try check(H5Tset_strpad(type.id, H5T_STR_NULLPAD), "set null padding")
        return (type, bytes)
    }

    /// Creates a dataset of `fileType` with `dims`; `chunk` and `compression` (deflate level) optional.
    /// A first axis of `maxFirst == nil` is extendible.
    static func createDataset(_ file: Handle, _ name: String, fileType: hid_t, dims: [Int], chunk: [Int]?, compression: Int?,
                              extendible: Bool = false) throws -> Handle {
        var current = dims.map { hsize_t($0) }
        var maximum = current
        if extendible { maximum[0] = hsize_t.max }  // H5S_UNLIMITED
        let space = try Handle(H5Screate_simple(Int32(dims.count), &current, &maximum), what: "make the space of '\(name)'", close: H5Sclose)
        let dcpl = try Handle(H5Pcreate(H5P_CLS_DATASET_CREATE_ID_g), what: "make dataset properties", close: H5Pclose)
        try check(H5Pset_obj_track_times(dcpl.id, false), "turn off time tracking")
        if let chunk {
            try check(H5Pset_chunk(dcpl.id, Int32(chunk.count), chunk.map { hsize_t($0) }), "chunk '\(name)'")
            // Checksums on every chunk: a flipped byte is an error on read, never silent garbage.
            try check(H5Pset_fletcher32(dcpl.id), "checksum '\(name)'")
            if let level = compression { try check(H5Pset_deflate(dcpl.id, UInt32(level)), "compress '\(name)'") }
        }
        return try Handle(H5Dcreate2(file.id, name, fileType, space.id, hid_t(H5P_DEFAULT), dcpl.id, hid_t(H5P_DEFAULT)),
                          what: "create dataset '\(name)'", close: H5Dclose)
    }

    /// Writes a whole numeric dataset from memory.
    static func write<T>(_ file: Handle, _ name: String, _ values: [T], dims: [Int], fileType: hid_t, memType: hid_t) throws {
        let rows = max(1, dims[0])
        let chunkRows = max(1, min(rows, (1 << 16) / max(1, dims.dropFirst().reduce(1, *))))
        let chunk = dims.count > 0 && dims[0] > 0 ? [chunkRows] + dims.dropFirst() : nil
        let ds = try createDataset(file, name, fileType: fileType, dims: dims, chunk: chunk, compression: 4)
        guard !values.isEmpty else { return }
        try values.withUnsafeBytes {
            try check(H5Dwrite(ds.id, memType, hid_t(H5S_ALL), hid_t(H5S_ALL), hid_t(H5P_DEFAULT), $0.baseAddress), "write '\(name)'")
        }
    }

    /// Writes a 1-D dataset of fixed-length UTF-8 strings (see `fixedUTF8`).
    static func writeStrings(_ file: Handle, _ name: String, _ values: [String]) throws {
        let (type, bytes) = try fixedUTF8(values)
        let chunk = values.isEmpty ? nil : [min(values.count, 4096)]
        let ds = try createDataset(file, name, fileType: type.id, dims: [values.count], chunk: chunk, compression: 4)
        guard !values.isEmpty else { return }
        try bytes.withUnsafeBytes { try check(H5Dwrite(ds.id, type.id, hid_t(H5S_ALL), hid_t(H5S_ALL), hid_t(H5P_DEFAULT), $0.baseAddress), "write '\(name)'") }
    }

    /// Grows an extendible dataset to `rows` and writes `data` as its rows `start..<rows`.
    static func appendRows(_ ds: Handle, dims: [Int], start: Int, data: UnsafeRawPointer, memType: hid_t) throws {
        var newDims = dims.map { hsize_t($0) }
        newDims[0] = hsize_t(start + 1)
        try check(H5Dset_extent(ds.id, newDims), "grow to \(start + 1) rows")
        let space = try Handle(H5Dget_space(ds.id), what: "get the dataspace", close: H5Sclose)
        var offset = [hsize_t](repeating: 0, count: dims.count)
        offset[0] = hsize_t(start)
        var extent = newDims
        extent[0] = 1
        try check(H5Sselect_hyperslab(space.id, H5S_SELECT_SET, offset, nil, extent, nil), "select row \(start)")
        let memSpace = try Handle(H5Screate_simple(Int32(extent.count), extent, nil), what: "make a memory space", close: H5Sclose)
        try check(H5Dwrite(ds.id, memType, memSpace.id, space.id, hid_t(H5P_DEFAULT), data), "write row \(start)")
    }
}

/// What an HDF5 call was asked to do when it failed.
struct HDF5Failure: Error {
    let action: String
    init(_ action: String) { self.action = action }
}
