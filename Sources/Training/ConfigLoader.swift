import ConfigFiles
import Detection
import Foundation

@_exported import struct ConfigFiles.ConfigError

/// Run configs read strictly (`StrictConfig`): laid over the defaults of `RunConfig()`, every
/// impossible value refused with its dotted key.
public enum ConfigLoader {
    static let strict = StrictConfig(defaults: RunConfig(), choices: [
        "loss.class_balance": LossConfig.Balance.allCases.map(\.rawValue),
        "optimizer.name": OptimizerConfig.Kind.allCases.map(\.rawValue),
        "schedule.name": ScheduleConfig.Kind.allCases.map(\.rawValue),
    ]) { $0.problems() }

    /// The config of `url` with `overrides` ("dotted.key=value", the value in YAML) applied after it.
    public static func load(_ url: URL?, overrides: [String] = []) throws -> RunConfig { try strict.load(url, overrides: overrides) }

    /// A config from YAML text (as saved in a run folder) with `overrides` applied after it, with the same checks.
    public static func load(yaml: String, source: String, overrides: [String] = []) throws -> RunConfig {
        try strict.load(yaml: yaml, source: source, overrides: overrides)
    }

    /// The config as YAML, every key written out: what a run folder keeps.
    public static func yaml(_ config: RunConfig) throws -> String { try StrictConfig<RunConfig>.yaml(config) }

    /// Every key of a run config with its default, generated from `RunConfig()` (so the list
    /// cannot drift from the code): one line per section, for `uidetect train --help`.
    public static func keyListing() -> String {
        var sections: [(name: String, items: [String])] = []
        for (key, value) in strict.defaultKeys() {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            let (section, rest) = parts.count == 2 ? (parts[0], parts[1]) : ("top level", parts[0])
            let item = "\(rest) (\(value))"
            // Top-level keys are spread between the sections in the type: one line gathers them.
            if let k = sections.firstIndex(where: { $0.name == section }) { sections[k].items.append(item) } else { sections.append((section, [item])) }
        }
        return sections.map { "\($0.name): " + $0.items.joined(separator: ", ") }.joined(separator: "\n")
    }

    /// The dotted keys at which two configs differ (a resumed run refuses a changed config by them).
    public static func differingKeys(_ a: RunConfig, _ b: RunConfig) -> [String] {
        a == b ? [] : StrictConfig<RunConfig>.differingKeys(a, b)
    }
}
