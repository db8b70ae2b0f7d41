import Foundation

/// What `uidetect train` was asked for, its config loaded once: a new run of a config file, or
/// the run in a folder resumed (with its own config, or the same file, possibly extended).
public struct RunLaunch {
    public let folder: URL
    public let config: RunConfig
    public let resume: Bool
    /// With `resume`, the step count the run had when this launch extends it.
    public let extendedFrom: Int?

    /// A new run of `config` in `folder`.
    public init(starting config: RunConfig, in folder: URL) {
        (self.folder, self.config, resume, extendedFrom) = (folder, config, false, nil)
    }

    /// The run in `folder` resumed with its own config, or with `given`, which must be its config or extend it.
    public init(resuming folder: URL, given: RunConfig?) throws {
        let opened = try RunFolder.open(folder, given: given, overrides: [])
        (self.folder, config, resume, extendedFrom) = (folder, opened.config, true, opened.extendedFrom)
    }

    /// The launch of `configFile` (or, resuming, the run's own config) with `overrides`, in
    /// `runs/NAME` (`name`, else the config's name).
    public init(configFile: URL?, overrides: [String], name: String?, runs: URL, resume: Bool) throws {
        self.resume = resume
        let given = try configFile.map { try ConfigLoader.load($0, overrides: overrides) }
        folder = runs.appendingPathComponent(name ?? given?.name ?? "run")
        if resume {
            let opened = try RunFolder.open(folder, given: given, overrides: configFile == nil ? overrides : [])
            (config, extendedFrom) = (opened.config, opened.extendedFrom)
        } else {
            guard let given else { throw TrainingError.notARun(folder.path, holds: []) }
            (config, extendedFrom) = (given, nil)
        }
    }
}
