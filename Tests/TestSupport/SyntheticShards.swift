import Boxes
import Foundation
import Shards
import Synthesis

/// Synthetic screens `indices` (`size`, `apps` apps, from `seed`) written as one shard at `url`
/// (its folder made if missing), with their boxes, original sizes and description truth.
@discardableResult
public func writeSyntheticShard(to url: URL, screens indices: Range<Int>, size: Size, seed: UInt64, apps: Int = 2) throws -> URL {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let synth = try ScreenSynthesizer(size: size, seed: seed, appCount: apps)
    let writer = try ShardWriter(url: url, classNames: defaultClassNames, imageSize: size)
    for i in indices { try writer.append(synth.screen(index: i)) }
    try writer.finish()
    return url
}

/// Writes `records` as a shard at `url` (its folder made if missing) and returns the URL; the image
/// size is the first record's (16 x 32 when there is none).
@discardableResult
public func writeShard(_ records: [ScreenRecord], to url: URL, classNames: [String] = defaultClassNames) throws -> URL {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let writer = try ShardWriter(url: url, classNames: classNames, imageSize: records.first?.image?.size ?? Size(width: 16, height: 32))
    for r in records { try writer.append(r) }
    try writer.finish()
    return url
}
