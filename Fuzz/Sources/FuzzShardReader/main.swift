import Foundation
import FuzzDriver
import Shards

// Screen shards (shard-format.md) from arbitrary bytes: HDF5 reads files, so each input is written
// to a scratch file first. Everything a reader offers is read: records, images, the optional datasets.
let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("uidetect-fuzz-shard-\(getpid()).h5")

fuzz { data in
    do { try data.write(to: scratch) } catch { fatalError("cannot write \(scratch.path): \(error)") }
    guard let reader = try? ShardReader(url: scratch) else { return }
    for i in 0..<reader.count {
        guard let record = try? reader.record(at: i) else { continue }
        precondition(record.boxes.count == record.labels.count, "record \(i): boxes and labels differ in count")
        for l in record.labels { precondition(reader.classNames.indices.contains(Int(l)), "record \(i): label \(l) outside the vocabulary") }
    }
    try? reader.verifyImages()
}
