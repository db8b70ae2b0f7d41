import ArgumentParser
import Diagnostics
import Foundation

struct SelfCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selfcheck",
        abstract: "Check every engine op against finite differences and train a tiny network.")

    @OptionGroup var threads: ThreadOptions

    func run() throws { try threads.scope(body) }

    private func body() throws {
        let outcomes = SelfCheck().run { o in
            print("\(o.passed ? "ok  " : "FAIL") \(o.name.padding(toLength: 52, withPad: " ", startingAt: 0)) \(o.detail)")
        }
        let failed = outcomes.filter { !$0.passed }.count
        print("\(outcomes.count - failed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}
