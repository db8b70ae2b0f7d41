import ArgumentParser

@main
struct UIDetect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uidetect",
        abstract: "Train and evaluate detectors of user-interface elements in app screenshots.",
        subcommands: [])
}
