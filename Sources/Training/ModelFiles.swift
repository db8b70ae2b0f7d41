import Checkpoints
import Detection
import IconRecognition
import Foundation

/// The files of a trained detector, found from what a user names: a weights file, a checkpoint
/// folder, or a run folder (its `checkpoints/best`, else `checkpoints/last`). Models trained for
/// the detector (the icon-interactivity model, the icon classifier) live beside it: in the run
/// folder, or in the folder of a weights file or checkpoint. Only this type knows that layout.
public struct ModelFiles: Sendable {
    public static let iconInteractivityName = "icon-interactivity.json"

    /// The detector's weights file.
    public let detector: URL
    /// Folders searched for models beside the detector, nearest first.
    public let companionFolders: [URL]

    /// The files meant by `path`; an error naming it when it is none of the three.
    public init(resolving path: String) throws {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw CheckpointError(path: path, problem: "no such file or folder")
        }
        let fm = FileManager.default
        if !isFolder.boolValue {
            detector = url
        } else if fm.fileExists(atPath: url.appendingPathComponent(DetectorWeights.modelFile).path) {
            detector = url.appendingPathComponent(DetectorWeights.modelFile)
        } else if let found = ["best", "last"].map({ RunFolder(url).checkpoints.folder.appendingPathComponent($0).appendingPathComponent(DetectorWeights.modelFile) })
                    .first(where: { fm.fileExists(atPath: $0.path) }) {
            detector = found
        } else {
            throw CheckpointError(path: path, problem: "neither a weights file, a checkpoint folder (with \(DetectorWeights.modelFile)) nor a run folder with checkpoints")
        }
        // The folder named (or the weights file's), then the run folder when the weights lie in its checkpoints/.
        let named = isFolder.boolValue ? url : url.deletingLastPathComponent()
        let checkpoints = detector.deletingLastPathComponent().deletingLastPathComponent()
        let run = checkpoints.deletingLastPathComponent()
        companionFolders = checkpoints.lastPathComponent == "checkpoints" && run.standardizedFileURL != named.standardizedFileURL ? [named, run] : [named]
    }

    /// Where a model trained for this detector is written: the folder named (or the weights file's).
    public var companionFolder: URL { companionFolders[0] }

    /// The icon-interactivity model beside the detector, if there is one.
    public var iconInteractivity: URL? { companion(Self.iconInteractivityName) }

    /// The first file named `name` in the companion folders.
    public func companion(_ name: String) -> URL? {
        companionFolders.map { $0.appendingPathComponent(name) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}

extension ModelFiles {
    /// The icon classifier meant by `path` (icon-recognition.md): the file itself, a folder holding
    /// one (its run folder), or a detector's weights, checkpoint or run folder with one beside it.
    public static func iconClassifier(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw CheckpointError(path: path, problem: "no such file or folder") }
        if !isFolder.boolValue && url.lastPathComponent != DetectorWeights.modelFile { return url }
        let direct = url.appendingPathComponent(IconClassifier.fileName)
        if isFolder.boolValue && FileManager.default.fileExists(atPath: direct.path) { return direct }
        if let beside = (try? ModelFiles(resolving: path))?.companion(IconClassifier.fileName) { return beside }
        throw CheckpointError(path: path, problem: "holds no \(IconClassifier.fileName) (train one with uidetect train-icon-classifier)")
    }

    /// The icon classifier beside the detector, if there is one.
    public var iconClassifier: URL? { companion(IconClassifier.fileName) }
}
