import Foundation
import FuzzDriver
import Training

// Run configs (YAML) as `uidetect train --config` loads them. A config that loads must have passed
// every range check, and must survive its own round trip (what a run folder saves and resume reads).
fuzz { data in
    let text = String(decoding: data, as: UTF8.self)
    guard let config = try? ConfigLoader.load(yaml: text, source: "fuzz.yaml") else { return }
    precondition(config.problems().isEmpty, "a loaded config has problems: \(config.problems())")
    do {
        let saved = try ConfigLoader.yaml(config)
        let again = try ConfigLoader.load(yaml: saved, source: "saved.yaml")
        precondition(ConfigLoader.differingKeys(config, again).isEmpty, "the saved config reads back different at \(ConfigLoader.differingKeys(config, again))")
    } catch {
        fatalError("a loaded config cannot be saved and read back: \(error)")
    }
}
